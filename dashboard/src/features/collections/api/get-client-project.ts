import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { TableSummary } from '@/lib/types';

export interface ClientProject {
  project: { id: number; name: string; slug: string };
  tables: TableSummary[];
}

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
