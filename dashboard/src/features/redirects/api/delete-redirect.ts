import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface DeleteRedirectInput {
  id: number;
  projectId: number;
}

export function deleteRedirect({ id }: DeleteRedirectInput): Promise<void> {
  return apiJson<void>(`/api/redirects/${id}`, { method: 'DELETE' });
}

export function useDeleteRedirect() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteRedirect,
    onSuccess: (_, { id, projectId }) => {
      client.removeQueries({ queryKey: queryKeys.redirect(id) });
      return client.invalidateQueries({ queryKey: queryKeys.redirects(projectId) });
    },
  });
}
