import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/Button';
import { Dialog } from '@/components/ui/Dialog';
import { detailMessage, type ApiErrorDetail } from '@/lib/api-client';

interface Props {
  /** The server's message for the whole import. */
  message: string;
  /** Its `details[]`: one problem per row and column. */
  details: ApiErrorDetail[];
  fileName: string;
  onClose: () => void;
}

/**
 * Why an import was refused: the server's message, then a table of each row and column with its
 * problem, so the person can fix the file line by line. Nothing was imported.
 */
export function ImportErrorsDialog({ message, details, fileName, onClose }: Props) {
  const { t } = useTranslation();
  return (
    <Dialog
      title={t('kit.importErrors.title', { name: fileName })}
      onClose={onClose}
      testId="import-errors-dialog"
      footer={
        <div className="button-row">
          <Button variant="primary" onPress={onClose} testId="import-errors-close">
            {t('common.close')}
          </Button>
        </div>
      }
    >
      <p role="alert" data-testid="import-errors-message">
        {message}
      </p>
      <p className="muted">{t('kit.importErrors.nothingImported', { count: details.length })}</p>
      {details.length > 0 && (
        <ImportProblems details={details} testId="import-errors-table" rowTestId="import-error-row" />
      )}
    </Dialog>
  );
}

/** Each problem of an import with its row and column, in a scrolling region. */
export function ImportProblems({
  details,
  testId,
  rowTestId,
}: {
  details: ApiErrorDetail[];
  testId: string;
  rowTestId: string;
}) {
  const { t } = useTranslation();
  return (
    <div
      className="import-errors-scroll"
      role="region"
      tabIndex={0}
      aria-label={t('kit.importErrors.listLabel')}
    >
      <table className="import-errors-table" data-testid={testId}>
        <thead>
          <tr>
            <th scope="col">{t('kit.importErrors.row')}</th>
            <th scope="col">{t('kit.importErrors.column')}</th>
            <th scope="col">{t('kit.importErrors.message')}</th>
          </tr>
        </thead>
        <tbody>
          {details.map((detail, index) => (
            <tr key={index} data-testid={rowTestId}>
              <td>{detail.row ?? '—'}</td>
              <td>{detail.column ?? '—'}</td>
              <td>{detailMessage(detail)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
