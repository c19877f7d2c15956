import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '@/components/toast';
import { Dialog } from '@/components/ui/Dialog';
import { RadioGroup } from '@/components/ui/RadioGroup';
import { ApiError, errorMessage, type ApiErrorDetail } from '@/lib/api-client';
import { readAsDataUrl } from '@/lib/files';
import { type ImportMode, useImportTable } from '@/features/collections/api/import-table';
import { ImportErrorsDialog } from './ImportErrorsDialog';
import { ActionButton } from '@/components/ActionButton';

/**
 * Reads a .csv/.json file and posts it; toasts the count and the list reloads (spec §2). Before
 * it is sent, a dialog asks how: update the records whose slug the file names and insert the
 * others (the default, so an edited export goes back in), or insert every row as new. A refused
 * import opens a dialog listing each row and column with its problem.
 */
export function ImportButton({ tableId }: { tableId: number }) {
  const { t } = useTranslation();
  const id = useId();
  const importTable = useImportTable();
  const [chosen, setChosen] = useState<File | null>(null);
  const [mode, setMode] = useState<ImportMode>('upsert');
  const [failed, setFailed] = useState<{
    fileName: string;
    message: string;
    details: ApiErrorDetail[];
  } | null>(null);

  const send = async (file: File) => {
    setChosen(null);
    try {
      const content = await readAsDataUrl(file);
      const count = await importTable.mutateAsync({ tableId, name: file.name, content, mode });
      toast.success(t('records.imported', { n: count }));
    } catch (failure) {
      const details = failure instanceof ApiError ? failure.details : [];
      if (details.length === 0) toast.error(errorMessage(failure));
      else setFailed({ fileName: file.name, message: errorMessage(failure), details });
    }
  };

  return (
    <>
      <label
        className={`button${importTable.isPending ? ' is-busy' : ''}`}
        htmlFor={id}
        title={t('records.importHint')}
      >
        {importTable.isPending ? t('records.importing') : t('records.import')}
        <input
          id={id}
          type="file"
          className="sr-only"
          accept=".csv,.json,text/csv,application/json"
          disabled={importTable.isPending}
          data-testid="import-input"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) setChosen(file);
            event.target.value = '';
          }}
        />
      </label>
      {chosen && (
        <Dialog
          title={t('records.importTitle', { name: chosen.name })}
          onClose={() => setChosen(null)}
          testId="import-dialog"
          footer={
            <div className="button-row">
              <ActionButton onClick={() => setChosen(null)}>{t('common.cancel')}</ActionButton>
              <ActionButton variant="primary" onClick={() => void send(chosen)} testId="import-confirm">
                {t('records.import')}
              </ActionButton>
            </div>
          }
        >
          <RadioGroup
            label={t('records.importMode')}
            value={mode}
            onChange={(value) => setMode(value === 'insert' ? 'insert' : 'upsert')}
            testId="import-mode"
            options={[
              { id: 'upsert', label: t('records.importUpsert'), testId: 'import-mode-upsert' },
              { id: 'insert', label: t('records.importInsert'), testId: 'import-mode-insert' },
            ]}
          />
        </Dialog>
      )}
      {failed && <ImportErrorsDialog {...failed} onClose={() => setFailed(null)} />}
    </>
  );
}
