import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Table } from '@/features/collections/types';

/** A collection with its fields (in order) and meta. */
export function getTable(id: number): Promise<Table> {
  return apiJson<Table>(`/api/tables/${id}`);
}

export function tableQueryOptions(id: number) {
  return queryOptions({
    queryKey: queryKeys.table(id),
    queryFn: () => getTable(id),
    enabled: Number.isInteger(id) && id > 0,
  });
}

export function useTable(id: number) {
  return useQuery(tableQueryOptions(id));
}
