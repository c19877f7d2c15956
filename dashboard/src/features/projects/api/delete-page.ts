import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface DeletePageInput {
  id: number;
  projectId: number;
}

/** The home page (slug "/") is refused by the server with a 422 message. */
export function deletePage({ id }: DeletePageInput): Promise<void> {
  return apiJson<void>(`/api/page/${id}`, { method: 'DELETE' });
}

export function useDeletePage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deletePage,
    onSuccess: (_, { projectId }) =>
      client.invalidateQueries({ queryKey: queryKeys.project(projectId), exact: true }),
  });
}
