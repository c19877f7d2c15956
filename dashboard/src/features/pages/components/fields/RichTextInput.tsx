import Image from '@tiptap/extension-image';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { usePrompt } from '@/components/PromptDialog';
import { ImageUpload } from './ImageUpload';

function Toolbar({ editor, prefix }: { editor: Editor; prefix: (string | number)[] }) {
  const { t } = useTranslation();
  const [promptDialog, askText] = usePrompt();
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      h2: e.isActive('heading', { level: 2 }),
      bulletList: e.isActive('bulletList'),
      link: e.isActive('link'),
    }),
  });
  const setLink = async () => {
    const previous = String(editor.getAttributes('link').href ?? '');
    const href = await askText({
      title: t('editor.rich.link'),
      label: t('editor.rich.linkPrompt'),
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
      onClick={run}
    >
      {label}
    </button>
  );
  return (
    <div className="rich-toolbar" role="toolbar">
      {button('bold', t('editor.rich.bold'), () => editor.chain().focus().toggleBold().run())}
      {button('italic', t('editor.rich.italic'), () => editor.chain().focus().toggleItalic().run())}
      {button('h2', t('editor.rich.heading'), () => editor.chain().focus().toggleHeading({ level: 2 }).run())}
      {button('bulletList', t('editor.rich.list'), () => editor.chain().focus().toggleBulletList().run())}
      {button('link', t('editor.rich.link'), () => void setLink())}
      <ImageUpload
        prefix={prefix}
        label={t('editor.rich.image')}
        onUploaded={(src, file) => editor.chain().focus().setImage({ src, alt: file.name }).run()}
      />
      {promptDialog}
    </div>
  );
}

interface Props {
  id: string;
  value: string;
  onChange: (html: string) => void;
  /**
   * Upload folder of its images: the page's [user_id, project_id], like every other image of
   * the page (the spec's shared 'admin' folder would belong to no project, and the site's host
   * serves only its own project's files).
   */
  prefix: (string | number)[];
}

/**
 * `richtext` variables: tiptap (ProseMirror underneath; maintained, and already the dashboard's
 * rich-text editor), 300 px high. The editor owns its document while it has the focus; a new
 * `value` from elsewhere (undo, redo) replaces it otherwise. The server sanitises the HTML.
 */
export default function RichTextInput({ id, value, onChange, prefix }: Props) {
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: { openOnClick: false } }), Image],
    content: value,
    editorProps: { attributes: { id, class: 'rich-content', 'data-testid': `${id}-rich` } },
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? '' : e.getHTML()),
  });
  useEffect(() => {
    // A destroyed editor (React re-creating it) has no schema left to serialise with.
    if (!editor || editor.isDestroyed || editor.isFocused) return;
    if (value !== (editor.isEmpty ? '' : editor.getHTML())) {
      editor.commands.setContent(value, { emitUpdate: false });
    }
  }, [editor, value]);
  if (!editor) return null;
  return (
    <div className="rich-editor">
      <Toolbar editor={editor} prefix={prefix} />
      <EditorContent editor={editor} />
    </div>
  );
}
