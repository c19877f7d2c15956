import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface ReorderInput {
  id: number;
  order: number;
}

/** POST /erp/reorder-block/{id} {order} → 204. */
export function reorderBlock({ id, order }: ReorderInput): Promise<void> {
  return apiJson<void>(`/erp/reorder-block/${id}`, { method: 'POST', body: { order } });
}

export function useReorderBlock() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: reorderBlock,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.blocks }),
  });
}
