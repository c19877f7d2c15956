import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { ClientContext } from '@/lib/types';

/** The project a client token opens, with its collections. */
export type ClientProject = ClientContext;

/** The project a client token opens (404 for a wrong or regenerated token). */
export function getClientProject(token: string): Promise<ClientProject> {
  return apiJson<ClientProject>('/api/client/project', { clientToken: token });
}

export function clientProjectQueryOptions(token: string) {
  return queryOptions({
    queryKey: queryKeys.clientProject(token),
    queryFn: () => getClientProject(token),
    retry: false,
    staleTime: Infinity,
  });
}

export function useClientProject(token: string) {
  return useQuery(clientProjectQueryOptions(token));
}
