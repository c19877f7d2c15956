import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import {
  HISTORY_PAGE_SIZE,
  NO_FILTER,
  type FormHistory,
  type HistoryFilter,
} from '@/features/form-history/types';

/** The start of a local day (`YYYY-MM-DD`) `plusDays` later, as an instant; null for no day. */
function localDayStart(day: string, plusDays: number): string | null {
  const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!parts) return null;
  return new Date(Number(parts[1]), Number(parts[2]) - 1, Number(parts[3]) + plusDays).toISOString();
}

/**
 * The server's query for a filter: the text, and the user's days as instants (the server reads a
 * bare date as a UTC day): from the first day's start to the start of the day after the last.
 */
export function filterParams(filter: HistoryFilter): URLSearchParams {
  const params = new URLSearchParams();
  const q = filter.q.trim();
  if (q) params.set('q', q);
  const from = localDayStart(filter.from, 0);
  if (from) params.set('from', from);
  const to = localDayStart(filter.to, 1);
  if (to) params.set('to', to);
  return params;
}

/** One page of the submissions the filter keeps, in the order the project's settings ask for. */
export function getFormHistory(
  projectId: number,
  page: number,
  filter: HistoryFilter = NO_FILTER,
  limit: number = HISTORY_PAGE_SIZE,
): Promise<FormHistory> {
  const params = filterParams(filter);
  params.set('page', String(page));
  params.set('limit', String(limit));
  return apiJson<FormHistory>(`/api/projects/${projectId}/form-history?${params.toString()}`);
}

export function formHistoryQueryOptions(
  projectId: number,
  page: number,
  filter: HistoryFilter = NO_FILTER,
  limit: number = HISTORY_PAGE_SIZE,
) {
  return queryOptions({
    queryKey: queryKeys.formHistoryPage(projectId, page, limit, filterParams(filter).toString()),
    queryFn: () => getFormHistory(projectId, page, filter, limit),
    enabled: Number.isInteger(projectId) && projectId > 0,
    placeholderData: keepPreviousData,
  });
}

export function useFormHistory(
  projectId: number,
  page: number,
  filter: HistoryFilter = NO_FILTER,
  limit: number = HISTORY_PAGE_SIZE,
) {
  return useQuery(formHistoryQueryOptions(projectId, page, filter, limit));
}
