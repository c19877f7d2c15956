import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '@/components/toast';
import { ApiError, errorMessage, type ApiErrorDetail } from '@/lib/api-client';
import { readAsDataUrl } from '@/lib/files';
import { type ImportMode, useImportTable } from '@/features/collections/api/import-table';
import { ImportErrorsDialog } from './ImportErrorsDialog';
import { ImportPreviewDialog } from './ImportPreviewDialog';

/**
 * Reads a .csv/.json file and posts it; toasts the true counts (inserted, updated, unchanged) and
 * the list reloads (spec §2). Before anything is written, a dialog asks how (update the records
 * whose slug the file names and insert the others, the default, so an edited export goes back in;
 * or insert every row as new) and previews the server's dry run: the detected encoding and
 * separator, the counts, the first rows as stored ("59 → R$ 59,00"). A refused import opens a
 * dialog listing each row and column with its problem.
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
      const done = await importTable.mutateAsync({ tableId, name: file.name, content, mode });
      // The spec's words when they are true (every row inserted), else every count.
      toast.success(
        done.updated === 0 && done.unchanged === 0
          ? t('records.imported', { n: done.inserted })
          : t('records.importedCounts', {
              inserted: done.inserted,
              updated: done.updated,
              unchanged: done.unchanged,
            }),
      );
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
        <ImportPreviewDialog
          tableId={tableId}
          file={chosen}
          mode={mode}
          onMode={setMode}
          onCancel={() => setChosen(null)}
          onConfirm={() => void send(chosen)}
        />
      )}
      {failed && <ImportErrorsDialog {...failed} onClose={() => setFailed(null)} />}
    </>
  );
}
