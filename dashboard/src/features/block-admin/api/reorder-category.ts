import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { ReorderInput } from './reorder-block';

/** POST /erp/reorder-category/{id} {order} → 204. */
export function reorderCategory({ id, order }: ReorderInput): Promise<void> {
  return apiJson<void>(`/erp/reorder-category/${id}`, { method: 'POST', body: { order } });
}

export function useReorderCategory() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: reorderCategory,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.blocks }),
  });
}
