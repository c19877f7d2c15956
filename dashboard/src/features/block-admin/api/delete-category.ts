import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** POST /erp/delete-category/{id} → 204; 409 while the category still has blocks. */
export function deleteCategory(id: number): Promise<void> {
  return apiJson<void>(`/erp/delete-category/${id}`, { method: 'POST' });
}

export function useDeleteCategory() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteCategory,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.blocks }),
  });
}
