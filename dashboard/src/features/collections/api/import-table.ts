import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface ImportTableInput {
  tableId: number;
  /** File name (.csv or .json). */
  name: string;
  /** data: URL of the file. */
  content: string;
}

/** Inserts the records of a CSV (header name,slug,<field slugs>) or JSON file; answers the count. */
export function importTable({ tableId, name, content }: ImportTableInput): Promise<number> {
  return apiJson<number>(`/api/tables/${tableId}/import`, { method: 'POST', body: { name, content } });
}

export function useImportTable() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: importTable,
    onSuccess: (_, { tableId }) => client.invalidateQueries({ queryKey: queryKeys.tableData(tableId) }),
  });
}
