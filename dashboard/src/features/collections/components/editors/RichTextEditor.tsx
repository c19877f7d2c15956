import { useTranslation } from 'react-i18next';
import { RichText, useRichTextEditor } from '@/components/RichText';
import { UploadButton } from '@/features/collections/components/UploadButton';

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
  const { t } = useTranslation();
  // A contenteditable is no labelable element: the field's <label> (id `${id}-label`) names it.
  const editor = useRichTextEditor(value, onChange, {
    id,
    class: 'rich-content',
    'aria-labelledby': `${id}-label`,
    'data-testid': testId ?? id,
  });

  if (!editor) return null;
  return (
    <RichText
      editor={editor}
      tools={['bold', 'italic', 'h2', 'h3', 'bulletList', 'orderedList', 'link']}
      label={(key) => t(`records.form.rich.${key}`)}
      titled
      image={(insert) => (
        <UploadButton
          imagesOnly
          prefix={uploadPrefix}
          label={t('records.form.rich.image')}
          onUploaded={insert}
        />
      )}
    />
  );
}
