import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { HISTORY_PAGE_SIZE, type FormHistory } from '@/features/form-history/types';

/** One page of submissions, in the order the project's settings ask for. */
export function getFormHistory(
  projectId: number,
  page: number,
  limit: number = HISTORY_PAGE_SIZE,
): Promise<FormHistory> {
  return apiJson<FormHistory>(`/api/projects/${projectId}/form-history?page=${page}&limit=${limit}`);
}

export function formHistoryQueryOptions(projectId: number, page: number, limit: number = HISTORY_PAGE_SIZE) {
  return queryOptions({
    queryKey: queryKeys.formHistoryPage(projectId, page, limit),
    queryFn: () => getFormHistory(projectId, page, limit),
    enabled: Number.isInteger(projectId) && projectId > 0,
    placeholderData: keepPreviousData,
  });
}

export function useFormHistory(projectId: number, page: number, limit: number = HISTORY_PAGE_SIZE) {
  return useQuery(formHistoryQueryOptions(projectId, page, limit));
}
