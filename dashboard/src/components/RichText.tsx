/**
 * The dashboard's rich-text editor, on tiptap (ProseMirror underneath; maintained): the record
 * form's `wysiwyg` fields and the page editor's `richtext` variables. The server sanitises the
 * HTML. Its screens load it lazily, so tiptap stays out of the other chunks.
 */
import Image from '@tiptap/extension-image';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { usePrompt } from '@/components/PromptDialog';

/** A toolbar button; `link` asks for the address. */
export type RichTool = 'bold' | 'italic' | 'h2' | 'h3' | 'bulletList' | 'orderedList' | 'link';

const isActive: Record<RichTool, (editor: Editor) => boolean> = {
  bold: (editor) => editor.isActive('bold'),
  italic: (editor) => editor.isActive('italic'),
  h2: (editor) => editor.isActive('heading', { level: 2 }),
  h3: (editor) => editor.isActive('heading', { level: 3 }),
  bulletList: (editor) => editor.isActive('bulletList'),
  orderedList: (editor) => editor.isActive('orderedList'),
  link: (editor) => editor.isActive('link'),
};

const toggle: Record<Exclude<RichTool, 'link'>, (editor: Editor) => void> = {
  bold: (editor) => editor.chain().focus().toggleBold().run(),
  italic: (editor) => editor.chain().focus().toggleItalic().run(),
  h2: (editor) => editor.chain().focus().toggleHeading({ level: 2 }).run(),
  h3: (editor) => editor.chain().focus().toggleHeading({ level: 3 }).run(),
  bulletList: (editor) => editor.chain().focus().toggleBulletList().run(),
  orderedList: (editor) => editor.chain().focus().toggleOrderedList().run(),
};

/**
 * The editor, with `content` as its first document; `onChange` gets its HTML after each edit ('' once
 * empty). `attributes` go on the editable element (its id, class, label and test id).
 */
export function useRichTextEditor(
  content: string,
  onChange: (html: string) => void,
  attributes: Record<string, string>,
) {
  return useEditor({
    extensions: [StarterKit.configure({ link: { openOnClick: false } }), Image],
    content,
    editorProps: { attributes },
    onUpdate: ({ editor }) => onChange(editor.isEmpty ? '' : editor.getHTML()),
  });
}

interface RichTextProps {
  editor: Editor;
  /** The toolbar's buttons, in order. */
  tools: RichTool[];
  /** A tool's label, and with `linkPrompt` the label of the link address prompt. */
  label: (key: RichTool | 'linkPrompt') => string;
  /** Each button also shows its label as a tooltip and carries it as its accessible name. */
  titled?: boolean;
  /** The image upload button, which hands `insert` each uploaded image. */
  image: (insert: (src: string, file: File) => void) => ReactNode;
}

/** The buttons, each pressed while its mark or block applies, and the image upload. */
function Toolbar({ editor, tools, label, titled = false, image }: RichTextProps) {
  const { t } = useTranslation();
  const [promptDialog, askText] = usePrompt();
  const active = useEditorState({
    editor,
    selector: ({ editor: current }) =>
      Object.fromEntries(tools.map((tool) => [tool, isActive[tool](current)])) as Record<RichTool, boolean>,
  });

  const setLink = async () => {
    const href: unknown = editor.getAttributes('link').href;
    const answer = await askText({
      title: label('link'),
      label: label('linkPrompt'),
      defaultValue: typeof href === 'string' ? href : '',
      confirmLabel: t('kit.prompt.apply'),
    });
    if (answer === null) return;
    if (answer.trim() === '') editor.chain().focus().extendMarkRange('link').unsetLink().run();
    else editor.chain().focus().extendMarkRange('link').setLink({ href: answer.trim() }).run();
  };

  return (
    <div className="rich-toolbar" role="toolbar">
      {tools.map((tool) => (
        <button
          key={tool}
          type="button"
          className={`toolbar-button${active[tool] ? ' is-active' : ''}`}
          aria-pressed={active[tool]}
          title={titled ? label(tool) : undefined}
          aria-label={titled ? label(tool) : undefined}
          onClick={() => (tool === 'link' ? void setLink() : toggle[tool](editor))}
        >
          {label(tool)}
        </button>
      ))}
      {image((src, file) => editor.chain().focus().setImage({ src, alt: file.name }).run())}
      {promptDialog}
    </div>
  );
}

/** The toolbar above the editable content. */
export function RichText(props: RichTextProps) {
  return (
    <div className="rich-editor">
      <Toolbar {...props} />
      <EditorContent editor={props.editor} />
    </div>
  );
}
