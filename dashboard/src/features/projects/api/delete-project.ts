import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export function deleteProject(id: number): Promise<void> {
  return apiJson<void>(`/api/projects/${id}`, { method: 'DELETE' });
}

export function useDeleteProject() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteProject,
    onSuccess: (_, id) => {
      client.removeQueries({ queryKey: queryKeys.project(id) });
      return client.invalidateQueries({ queryKey: queryKeys.projects, exact: true });
    },
  });
}
