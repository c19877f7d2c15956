import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/ui/Dialog';
import { toast } from '@/components/toast';
import { jsonDownloadHref } from '@/features/block-admin/lib/block-form';
import { ActionButton } from '@/components/ActionButton';

export interface ExportFile {
  /** Download name, e.g. "blocks.json". */
  filename: string;
  text: string;
}

interface Props {
  title: string;
  files: ExportFile[];
  onClose: () => void;
}

/** Export text to copy (ready for the import modals) or download as JSON files. */
export function ExportModal({ title, files, onClose }: Props) {
  const { t } = useTranslation();
  const copy = (text: string) => {
    // No clipboard outside secure contexts: the text stays selectable in the box.
    if (!navigator.clipboard) {
      toast.error(t('blockAdmin.failed'));
      return;
    }
    void navigator.clipboard.writeText(text).then(
      () => toast.success(t('blockAdmin.ok')),
      () => toast.error(t('blockAdmin.failed')),
    );
  };
  return (
    <Dialog title={title} onClose={onClose} testId="export-modal">
      {files.map((file) => (
        <section key={file.filename} className="form">
          <h3 className="section-title">{file.filename}</h3>
          <textarea
            className="code-input"
            rows={10}
            readOnly
            value={file.text}
            data-testid={`export-text-${file.filename}`}
          />
          <div className="button-row">
            <a
              className="button button-small"
              href={jsonDownloadHref(file.text)}
              download={file.filename}
              data-testid={`export-download-${file.filename}`}
            >
              {t('blockAdmin.export.download')}
            </a>
            <ActionButton
              size="small"
              onClick={() => copy(file.text)}
              testId={`export-copy-${file.filename}`}
            >
              {t('blockAdmin.export.copy')}
            </ActionButton>
          </div>
        </section>
      ))}
    </Dialog>
  );
}
