import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Project, ProjectMeta } from '@/lib/types';

export interface UpdateProjectInput {
  id: number;
  name?: string;
  slug?: string;
  domain?: string | null;
  /** Keys merge server-side; server-owned keys are ignored. */
  meta?: Partial<ProjectMeta>;
}

export function updateProject({ id, ...body }: UpdateProjectInput): Promise<Project> {
  return apiJson<Project>(`/api/projects/${id}`, { method: 'POST', body });
}

export function useUpdateProject() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateProject,
    onSuccess: (project) =>
      Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.project(project.id) }),
        client.invalidateQueries({ queryKey: queryKeys.projects, exact: true }),
      ]),
  });
}
