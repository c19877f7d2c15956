import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Project, ProjectMeta } from '@/lib/types';

export interface CreateProjectInput {
  name: string;
  slug?: string;
  meta?: ProjectMeta;
}

export function createProject(input: CreateProjectInput): Promise<Project> {
  return apiJson<Project>('/api/projects', { method: 'POST', body: input });
}

export function useCreateProject() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createProject,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.projects, exact: true }),
  });
}
