import Image from '@tiptap/extension-image';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useTranslation } from 'react-i18next';
import { usePrompt } from '@/components/PromptDialog';
import { UploadButton } from '@/features/collections/components/UploadButton';

function Toolbar({ editor, uploadPrefix }: { editor: Editor; uploadPrefix: (string | number)[] }) {
  const { t } = useTranslation();
  const [promptDialog, askText] = usePrompt();
  const state = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current.isActive('bold'),
      italic: current.isActive('italic'),
      h2: current.isActive('heading', { level: 2 }),
      h3: current.isActive('heading', { level: 3 }),
      bulletList: current.isActive('bulletList'),
      orderedList: current.isActive('orderedList'),
      link: current.isActive('link'),
    }),
  });

  const setLink = async () => {
    const previous =
      typeof editor.getAttributes('link').href === 'string' ? String(editor.getAttributes('link').href) : '';
    const href = await askText({
      title: t('records.form.rich.link'),
      label: t('records.form.rich.linkPrompt'),
      defaultValue: previous,
      confirmLabel: t('kit.prompt.apply'),
    });
    if (href === null) return;
    if (href.trim() === '') editor.chain().focus().extendMarkRange('link').unsetLink().run();
    else editor.chain().focus().extendMarkRange('link').setLink({ href: href.trim() }).run();
  };

  const button = (key: keyof typeof state, label: string, run: () => void) => (
    <button
      type="button"
      className={`toolbar-button${state[key] ? ' is-active' : ''}`}
      aria-pressed={state[key]}
      title={label}
      aria-label={label}
      onClick={run}
    >
      {label}
    </button>
  );

  return (
    <div className="rich-toolbar" role="toolbar">
      {button('bold', t('records.form.rich.bold'), () => editor.chain().focus().toggleBold().run())}
      {button('italic', t('records.form.rich.italic'), () => editor.chain().focus().toggleItalic().run())}
      {button('h2', t('records.form.rich.h2'), () =>
        editor.chain().focus().toggleHeading({ level: 2 }).run(),
      )}
      {button('h3', t('records.form.rich.h3'), () =>
        editor.chain().focus().toggleHeading({ level: 3 }).run(),
      )}
      {button('bulletList', t('records.form.rich.bulletList'), () =>
        editor.chain().focus().toggleBulletList().run(),
      )}
      {button('orderedList', t('records.form.rich.orderedList'), () =>
        editor.chain().focus().toggleOrderedList().run(),
      )}
      {button('link', t('records.form.rich.link'), () => void setLink())}
      <UploadButton
        imagesOnly
        prefix={uploadPrefix}
        label={t('records.form.rich.image')}
        onUploaded={(src, file) => editor.chain().focus().setImage({ src, alt: file.name }).run()}
      />
      {promptDialog}
    </div>
  );
}

interface RichTextEditorProps {
  id: string;
  value: string;
  onChange: (html: string) => void;
  testId?: string;
  /**
   * Upload folder of its images: the record's [user_id, project_id, table_id], like the
   * record's other files (the spec's shared 'admin' folder would belong to no project, and the
   * site's host serves only its own project's files).
   */
  uploadPrefix: (string | number)[];
}

/**
 * wysiwyg field: TipTap, 300 px high; the server sanitises the HTML. `value` is the initial
 * content: the record form mounts once its record is loaded, so it is never replaced later.
 */
export function RichTextEditor({ id, value, onChange, testId, uploadPrefix }: RichTextEditorProps) {
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: { openOnClick: false } }), Image],
    content: value,
    // A contenteditable is no labelable element: the field's <label> (id `${id}-label`) names it.
    editorProps: {
      attributes: {
        id,
        class: 'rich-content',
        'aria-labelledby': `${id}-label`,
        'data-testid': testId ?? id,
      },
    },
    onUpdate: ({ editor: current }) => onChange(current.isEmpty ? '' : current.getHTML()),
  });

  if (!editor) return null;
  return (
    <div className="rich-editor">
      <Toolbar editor={editor} uploadPrefix={uploadPrefix} />
      <EditorContent editor={editor} />
    </div>
  );
}
