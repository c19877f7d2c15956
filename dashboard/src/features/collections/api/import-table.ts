import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type {
  ImportMode,
  ImportPreviewCell,
  ImportPreviewRow,
  ImportRowAction,
  ImportSummary,
} from '@/lib/types';

export type { ImportMode, ImportPreviewCell, ImportPreviewRow, ImportRowAction, ImportSummary };

export interface ImportTableInput {
  tableId: number;
  /** File name (.csv or .json). */
  name: string;
  /** data: URL of the file. */
  content: string;
  mode: ImportMode;
}

/**
 * Writes the records of a CSV (header name,slug,<field slugs or names>) or JSON file, all or none;
 * with `dryRun`, writes nothing and answers what it would do (the preview).
 */
export function importTable(
  { tableId, name, content, mode }: ImportTableInput,
  dryRun = false,
): Promise<ImportSummary> {
  return apiJson<ImportSummary>(`/api/tables/${tableId}/import`, {
    method: 'POST',
    body: { name, content, mode, dryRun },
  });
}

export function useImportTable() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ImportTableInput) => importTable(input),
    onSuccess: (_, { tableId }) => client.invalidateQueries({ queryKey: queryKeys.tableData(tableId) }),
  });
}
