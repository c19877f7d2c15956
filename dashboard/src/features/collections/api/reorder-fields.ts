import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface ReorderFieldsInput {
  tableId: number;
  /** Field ids in the new order. */
  fields: number[];
}

export function reorderFields({ fields }: ReorderFieldsInput): Promise<void> {
  return apiJson<void>('/api/fields/reorder', { method: 'POST', body: { fields } });
}

export function useReorderFields() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: reorderFields,
    onSuccess: (_, { tableId }) => client.invalidateQueries({ queryKey: queryKeys.table(tableId) }),
  });
}
