import { useTranslation } from 'react-i18next';
import { ActionButton } from '@/components/ActionButton';
import { Dialog } from '@/components/ui/Dialog';
import { RadioGroup } from '@/components/ui/RadioGroup';
import { errorMessage } from '@/lib/api-client';
import type { ImportMode, ImportPreviewCell, ImportSummary } from '@/features/collections/api/import-table';
import { usePreviewImport } from '@/features/collections/api/preview-import';
import { ImportProblems } from './ImportErrorsDialog';

interface Props {
  tableId: number;
  file: File;
  mode: ImportMode;
  onMode: (mode: ImportMode) => void;
  onCancel: () => void;
  /** Runs the real import; offered once the preview shows no refused row. */
  onConfirm: () => void;
}

/** A cell as the preview shows it: what the file wrote, and what is stored when it differs ("59 → R$ 59,00"). */
function cellText(cell: ImportPreviewCell | undefined): string {
  if (!cell) return '';
  if (cell.display === '' || cell.display === cell.written) return cell.written;
  return `${cell.written} → ${cell.display}`;
}

/** The catalogue's name of each separator the server detects. */
const SEPARATORS: Record<string, string> = { ',': 'comma', ';': 'semicolon', tab: 'tab' };

function Preview({ summary }: { summary: ImportSummary }) {
  const { t } = useTranslation();
  const separatorKey = summary.separator ? SEPARATORS[summary.separator] : undefined;
  const separator = separatorKey ? t(`records.importPreview.separators.${separatorKey}`) : null;
  return (
    <>
      <p className="muted" data-testid="import-preview-read">
        {separator
          ? t('records.importPreview.readCsv', { encoding: summary.encoding, separator })
          : t('records.importPreview.readJson', { encoding: summary.encoding })}
      </p>
      <ul className="import-preview-counts" data-testid="import-preview-counts">
        <li data-testid="import-count-insert">
          {t('records.importPreview.inserted', { count: summary.inserted })}
        </li>
        <li data-testid="import-count-update">
          {t('records.importPreview.updated', { count: summary.updated })}
        </li>
        <li data-testid="import-count-unchanged">
          {t('records.importPreview.unchanged', { count: summary.unchanged })}
        </li>
        <li data-testid="import-count-refused">
          {t('records.importPreview.refused', { count: summary.refused })}
        </li>
      </ul>
      {summary.preview.length > 0 && (
        <div
          className="import-errors-scroll"
          role="region"
          tabIndex={0}
          aria-label={t('records.importPreview.rowsLabel', { count: summary.preview.length })}
        >
          <table className="import-errors-table" data-testid="import-preview-table">
            <caption className="muted">
              {t('records.importPreview.rowsLabel', { count: summary.preview.length })}
            </caption>
            <thead>
              <tr>
                <th scope="col">{t('kit.importErrors.row')}</th>
                <th scope="col">{t('records.importPreview.action')}</th>
                <th scope="col">{t('records.importPreview.name')}</th>
                {summary.columns.map((column) => (
                  <th scope="col" key={column.field}>
                    {column.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {summary.preview.map((row) => (
                <tr key={row.row} data-testid="import-preview-row">
                  <td>{row.row}</td>
                  <td>{t(`records.importPreview.actions.${row.action}`)}</td>
                  <td>{row.name}</td>
                  {summary.columns.map((column) => (
                    <td key={column.field}>
                      {cellText(row.cells.find((cell) => cell.field === column.field))}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {summary.problems.length > 0 && (
        <>
          <p role="alert">{t('records.importPreview.fixRefused', { count: summary.refused })}</p>
          <ImportProblems
            details={summary.problems}
            testId="import-preview-problems"
            rowTestId="import-preview-problem"
          />
        </>
      )}
    </>
  );
}

/**
 * The import's preview, before anything is written: the server's dry run of the chosen file in
 * the chosen mode shows how the file was read (encoding, separator), the true counts (inserted,
 * updated, unchanged, refused) and the first rows as they will be stored. Importing is offered
 * only when no row is refused, as the import writes all rows or none.
 */
export function ImportPreviewDialog({ tableId, file, mode, onMode, onCancel, onConfirm }: Props) {
  const { t } = useTranslation();
  const preview = usePreviewImport(tableId, file, mode);
  const ready = preview.data !== undefined && preview.data.refused === 0;
  return (
    <Dialog
      title={t('records.importTitle', { name: file.name })}
      onClose={onCancel}
      testId="import-dialog"
      size="wide"
      footer={
        <div className="button-row">
          <ActionButton onClick={onCancel}>{t('common.cancel')}</ActionButton>
          <ActionButton variant="primary" onClick={onConfirm} disabled={!ready} testId="import-confirm">
            {t('records.import')}
          </ActionButton>
        </div>
      }
    >
      <RadioGroup
        label={t('records.importMode')}
        value={mode}
        onChange={(value) => onMode(value === 'insert' ? 'insert' : 'upsert')}
        testId="import-mode"
        options={[
          { id: 'upsert', label: t('records.importUpsert'), testId: 'import-mode-upsert' },
          { id: 'insert', label: t('records.importInsert'), testId: 'import-mode-insert' },
        ]}
      />
      {preview.isPending && (
        <p className="muted" role="status" data-testid="import-preview-loading">
          {t('records.importPreview.reading')}
        </p>
      )}
      {preview.isError && (
        <p role="alert" data-testid="import-preview-error">
          {errorMessage(preview.error)}
        </p>
      )}
      {preview.data && <Preview summary={preview.data} />}
    </Dialog>
  );
}
