import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { EdgeOverview } from '@/features/edge-ops/types';

/** How often the screen asks again: the nodes heartbeat about every 5 s. */
export const EDGES_POLL_MS = 5_000;

/**
 * GET /api/edges → every edge node (administrators only; 404 otherwise). Quiet: a poll every
 * 5 s must not blink the global spinner over a screen that already shows the last answer.
 */
export function getEdges(): Promise<EdgeOverview> {
  return apiJson<EdgeOverview>('/api/edges', { quiet: true });
}

export const edgesQueryOptions = queryOptions({
  queryKey: queryKeys.erpEdges,
  queryFn: getEdges,
  refetchInterval: EDGES_POLL_MS,
  // The next poll is the retry: retrying in between would only delay showing that it failed.
  retry: false,
});

export function useEdges() {
  return useQuery(edgesQueryOptions);
}
