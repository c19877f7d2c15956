import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { RichText, useRichTextEditor } from '@/components/RichText';
import { ImageUpload } from '@/components/ImageUpload';

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
  const { t } = useTranslation();
  const editor = useRichTextEditor(value, onChange, {
    id,
    class: 'rich-content',
    'data-testid': `${id}-rich`,
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
    <RichText
      editor={editor}
      tools={['bold', 'italic', 'h2', 'bulletList', 'link']}
      label={(key) => t(`editor.rich.${key}`)}
      image={(insert) => <ImageUpload prefix={prefix} label={t('editor.rich.image')} onUploaded={insert} />}
    />
  );
}
