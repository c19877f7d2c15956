import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { AnalyticsReport } from '@/features/analytics/api/types';
import type { DateRange } from '@/features/analytics/lib/range';

/** How often the "now" figure (visitors in the last 5 minutes) is asked for again. */
export const NOW_POLL_MS = 30_000;

/**
 * GET /api/projects/{id}/analytics?from=…&to=… → the site's report for those days (404 for
 * other accounts' projects). `quiet` for the background poll: the global spinner stays still.
 */
export function getAnalytics(projectId: number, range: DateRange, quiet = false): Promise<AnalyticsReport> {
  const search = new URLSearchParams({ from: range.from, to: range.to });
  return apiJson<AnalyticsReport>(`/api/projects/${projectId}/analytics?${search.toString()}`, { quiet });
}

export function analyticsQueryOptions(projectId: number, range: DateRange) {
  return queryOptions({
    queryKey: queryKeys.analytics(projectId, range.from, range.to),
    queryFn: () => getAnalytics(projectId, range),
    // Another range keeps the last figures on screen until its own arrive.
    placeholderData: keepPreviousData,
  });
}

export function useAnalytics(projectId: number, range: DateRange) {
  return useQuery(analyticsQueryOptions(projectId, range));
}

/**
 * The live figure, polled every 30 s: the report of today alone (the cheapest one to count),
 * of which only `now` is kept. It starts from the screen's report (`seed`), so the first poll
 * comes 30 s after it. A failed poll keeps the last figure; the next poll is the retry.
 */
export function analyticsNowQueryOptions(projectId: number, day: string) {
  return queryOptions({
    queryKey: queryKeys.analyticsNow(projectId),
    queryFn: () => getAnalytics(projectId, { from: day, to: day }, true),
    select: (report) => report.now,
    refetchInterval: NOW_POLL_MS,
    retry: false,
  });
}

export function useAnalyticsNow(projectId: number, day: string, seed: AnalyticsReport | undefined) {
  return useQuery({
    ...analyticsNowQueryOptions(projectId, day),
    initialData: seed,
    staleTime: NOW_POLL_MS,
    enabled: seed?.enabled === true,
  });
}
