import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import type { ProjectDetail } from '../../../lib/types';

/**
 * The project with its collections (breadcrumbs, relation targets). Same call and cache entry
 * as the projects feature's, kept here because features don't import each other.
 */
export function getProject(id: number): Promise<ProjectDetail> {
  return apiJson<ProjectDetail>(`/api/projects/${id}`);
}

export function projectQueryOptions(id: number) {
  return queryOptions({ queryKey: queryKeys.project(id), queryFn: () => getProject(id) });
}

export function useProject(id: number) {
  return useQuery(projectQueryOptions(id));
}
