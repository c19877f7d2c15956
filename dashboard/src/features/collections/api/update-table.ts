import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Table, TableMeta } from '@/features/collections/types';

export interface UpdateTableInput {
  id: number;
  name?: string;
  slug?: string;
  meta?: TableMeta;
}

export function updateTable({ id, ...body }: UpdateTableInput): Promise<Table> {
  return apiJson<Table>(`/api/tables/${id}`, { method: 'POST', body });
}

export function useUpdateTable() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateTable,
    onSuccess: (table) => {
      client.setQueryData(queryKeys.table(table.id), table);
      return Promise.all([
        // Ordering options change the records pages.
        client.invalidateQueries({ queryKey: queryKeys.tableData(table.id) }),
        client.invalidateQueries({ queryKey: queryKeys.project(table.project_id), exact: true }),
      ]);
    },
  });
}
