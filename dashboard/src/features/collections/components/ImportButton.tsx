import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '@/components/toast';
import { ApiError, errorMessage, type ApiErrorDetail } from '@/lib/api-client';
import { readAsDataUrl } from '@/lib/files';
import { useImportTable } from '@/features/collections/api/import-table';
import { ImportErrorsDialog } from './ImportErrorsDialog';

/**
 * Reads a .csv/.json file and posts it; toasts the count and the list reloads (spec §2). A refused
 * import opens a dialog listing each row and column with its problem.
 */
export function ImportButton({ tableId }: { tableId: number }) {
  const { t } = useTranslation();
  const id = useId();
  const importTable = useImportTable();
  const [failed, setFailed] = useState<{
    fileName: string;
    message: string;
    details: ApiErrorDetail[];
  } | null>(null);

  const choose = async (file: File | undefined) => {
    if (!file) return;
    try {
      const content = await readAsDataUrl(file);
      const count = await importTable.mutateAsync({ tableId, name: file.name, content });
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
            void choose(event.target.files?.[0]);
            event.target.value = '';
          }}
        />
      </label>
      {failed && <ImportErrorsDialog {...failed} onClose={() => setFailed(null)} />}
    </>
  );
}
