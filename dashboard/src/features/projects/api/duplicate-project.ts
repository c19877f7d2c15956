import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Project } from '@/lib/types';

export function duplicateProject(id: number): Promise<Project> {
  return apiJson<Project>(`/api/projects/${id}/duplicate`, { method: 'POST' });
}

export function useDuplicateProject() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: duplicateProject,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.projects, exact: true }),
  });
}
