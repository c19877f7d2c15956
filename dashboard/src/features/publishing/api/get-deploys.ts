import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import type { DeployList } from '../types';

/** The project's deploys, newest first, and which one is live. */
export function getDeploys(projectId: number): Promise<DeployList> {
  return apiJson<DeployList>(`/api/projects/${projectId}/deploys`);
}

export function deploysQueryOptions(projectId: number) {
  return queryOptions({
    queryKey: queryKeys.deploys(projectId),
    queryFn: () => getDeploys(projectId),
    enabled: Number.isInteger(projectId) && projectId > 0,
  });
}

export function useDeploys(projectId: number) {
  return useQuery(deploysQueryOptions(projectId));
}
