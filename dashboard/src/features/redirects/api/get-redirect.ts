import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Redirect } from '@/features/redirects/types';

/** One rule, for the edit form (404 for other users' rules). */
export function getRedirect(id: number): Promise<Redirect> {
  return apiJson<Redirect>(`/api/redirects/${id}`);
}

export function redirectQueryOptions(id: number) {
  return queryOptions({
    queryKey: queryKeys.redirect(id),
    queryFn: () => getRedirect(id),
    enabled: Number.isInteger(id) && id > 0,
  });
}

export function useRedirect(id: number) {
  return useQuery(redirectQueryOptions(id));
}
