import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { RECORDS_PAGE_SIZE, type DataPage } from '@/features/collections/types';

/** One page of a collection's records, sorted by its ordering options (server-side paging). */
export function getData(tableId: number, page: number, limit: number = RECORDS_PAGE_SIZE): Promise<DataPage> {
  return apiJson<DataPage>(`/api/data/${tableId}?page=${page}&limit=${limit}`);
}

export function dataQueryOptions(tableId: number, page: number, limit: number = RECORDS_PAGE_SIZE) {
  return queryOptions({
    queryKey: queryKeys.tableDataPage(tableId, page, limit),
    queryFn: () => getData(tableId, page, limit),
    enabled: Number.isInteger(tableId) && tableId > 0,
    placeholderData: keepPreviousData,
  });
}

export function useData(tableId: number, page: number, limit: number = RECORDS_PAGE_SIZE) {
  return useQuery(dataQueryOptions(tableId, page, limit));
}
