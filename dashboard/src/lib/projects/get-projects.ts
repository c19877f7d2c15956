import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Project } from '@/lib/types';

/** Every project visible to the caller; search and ordering happen client-side. */
export function getProjects(): Promise<Project[]> {
  return apiJson<Project[]>('/api/projects');
}

export const projectsQueryOptions = queryOptions({
  queryKey: queryKeys.projects,
  queryFn: getProjects,
});

export function useProjects() {
  return useQuery(projectsQueryOptions);
}
