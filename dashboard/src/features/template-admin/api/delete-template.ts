import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** POST /erp/delete-template/{id} → 204. */
export function deleteTemplate(id: number): Promise<void> {
  return apiJson<void>(`/erp/delete-template/${id}`, { method: 'POST' });
}

export function useDeleteTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteTemplate,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.templates }),
  });
}
