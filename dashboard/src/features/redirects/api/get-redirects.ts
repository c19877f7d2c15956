import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { RedirectListQuery, RedirectPage } from '@/features/redirects/types';

function apiQuery({ page, order, term, limit }: RedirectListQuery): string {
  const search = new URLSearchParams({ page: String(page), order, limit: String(limit) });
  if (term.trim() !== '') search.set('term', term.trim());
  return search.toString();
}

/** One page of the project's rules, searched, ordered and sized by the server. */
export function getRedirects(projectId: number, query: RedirectListQuery): Promise<RedirectPage> {
  return apiJson<RedirectPage>(`/api/projects/${projectId}/redirects?${apiQuery(query)}`);
}

export function redirectsQueryOptions(projectId: number, query: RedirectListQuery) {
  return queryOptions({
    queryKey: queryKeys.redirectsPage(projectId, apiQuery(query)),
    queryFn: () => getRedirects(projectId, query),
    placeholderData: keepPreviousData,
  });
}

export function useRedirects(projectId: number, query: RedirectListQuery) {
  return useQuery(redirectsQueryOptions(projectId, query));
}
