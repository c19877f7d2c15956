import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/**
 * `upsert`: a row whose slug names a stored record updates it, the others are inserted;
 * `insert`: every row is a new record (a stored slug is then a problem at its row).
 */
export type ImportMode = 'upsert' | 'insert';

export interface ImportTableInput {
  tableId: number;
  /** File name (.csv or .json). */
  name: string;
  /** data: URL of the file. */
  content: string;
  mode: ImportMode;
}

/**
 * Writes the records of a CSV (header name,slug,<field slugs>) or JSON file, all or none;
 * answers how many were written (inserted and updated).
 */
export function importTable({ tableId, name, content, mode }: ImportTableInput): Promise<number> {
  return apiJson<number>(`/api/tables/${tableId}/import`, {
    method: 'POST',
    body: { name, content, mode },
  });
}

export function useImportTable() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: importTable,
    onSuccess: (_, { tableId }) => client.invalidateQueries({ queryKey: queryKeys.tableData(tableId) }),
  });
}
