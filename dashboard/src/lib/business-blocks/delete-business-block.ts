import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { refreshBusinessLibrary } from './get-business-blocks';

/** The business's administrators: deletes a block of the business's library (204). */
export function deleteBusinessBlock(id: number): Promise<void> {
  return apiJson<void>(`/api/business/blocks/${id}`, { method: 'DELETE' });
}

/** Deletes, then refreshes the editor's library and the business admin's list. */
export function useDeleteBusinessBlock() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteBusinessBlock,
    onSuccess: () => refreshBusinessLibrary(client),
  });
}
