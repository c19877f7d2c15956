import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Table, TableMeta } from '@/features/collections/types';

export interface CreateTableInput {
  project_id: number;
  name: string;
  slug?: string;
  meta: TableMeta;
}

export function createTable(input: CreateTableInput): Promise<Table> {
  return apiJson<Table>('/api/tables', { method: 'POST', body: input });
}

export function useCreateTable() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createTable,
    onSuccess: (table) => {
      client.setQueryData(queryKeys.table(table.id), table);
      return client.invalidateQueries({ queryKey: queryKeys.project(table.project_id), exact: true });
    },
  });
}
