import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import type { ProjectDetail } from '../../../lib/types';

/** One project with its pages and collections (404 also for other users' projects). */
export function getProject(id: number): Promise<ProjectDetail> {
  return apiJson<ProjectDetail>(`/api/projects/${id}`);
}

export function projectQueryOptions(id: number) {
  return queryOptions({
    queryKey: queryKeys.project(id),
    queryFn: () => getProject(id),
  });
}

export function useProject(id: number) {
  return useQuery(projectQueryOptions(id));
}
