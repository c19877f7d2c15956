import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { OrderChange } from '@/features/template-admin/lib/reorder';

/** POST /erp/reorder-template/{id} {order} → 204. */
export function reorderTemplate({ id, order }: OrderChange): Promise<void> {
  return apiJson<void>(`/erp/reorder-template/${id}`, { method: 'POST', body: { order } });
}

/** Stores a move: one call per row whose order changed, then one refresh of the list. */
export function reorderTemplates(changes: OrderChange[]): Promise<void> {
  return Promise.all(changes.map(reorderTemplate)).then(() => undefined);
}

export function useReorderTemplates() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: reorderTemplates,
    // Refreshed on failure too: some of the calls may have gone through.
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.templates }),
  });
}
