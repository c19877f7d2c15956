import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { DeployList } from '@/features/publishing/types';

const BUILDING_POLL_MS = 3_000;

/** The project's deploys, newest first, and which one is live. */
export function getDeploys(projectId: number): Promise<DeployList> {
  return apiJson<DeployList>(`/api/projects/${projectId}/deploys`);
}

export function deploysQueryOptions(projectId: number) {
  return queryOptions({
    queryKey: queryKeys.deploys(projectId),
    queryFn: () => getDeploys(projectId),
    enabled: Number.isInteger(projectId) && projectId > 0,
    // A deploy still building (from another tab, or the editor) shows its outcome without a reload.
    refetchInterval: (query) =>
      query.state.data?.data.some((deploy) => deploy.status === 'building') ? BUILDING_POLL_MS : false,
  });
}

export function useDeploys(projectId: number) {
  return useQuery(deploysQueryOptions(projectId));
}
