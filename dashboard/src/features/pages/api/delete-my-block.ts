import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** Deletes one of the user's My Blocks (204). */
export function deleteMyBlock(id: number): Promise<void> {
  return apiJson<void>(`/api/block/${id}`, { method: 'DELETE' });
}

export function useDeleteMyBlock() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteMyBlock,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.blocks }),
  });
}
