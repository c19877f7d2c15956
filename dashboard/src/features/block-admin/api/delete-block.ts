import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** POST /erp/delete-block/{id} → 204. */
export function deleteBlock(id: number): Promise<void> {
  return apiJson<void>(`/erp/delete-block/${id}`, { method: 'POST' });
}

export function useDeleteBlock() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteBlock,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.blocks }),
  });
}
