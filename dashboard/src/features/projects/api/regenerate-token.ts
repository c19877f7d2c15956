import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Project } from '@/lib/types';

/** Issues a new project token; the previous client panel link (/admin?token=…) stops working. */
export function regenerateToken(id: number): Promise<Project> {
  return apiJson<Project>(`/api/projects/${id}/token`, { method: 'POST' });
}

export function useRegenerateToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: regenerateToken,
    onSuccess: (project) =>
      client.invalidateQueries({ queryKey: queryKeys.project(project.id), exact: true }),
  });
}
