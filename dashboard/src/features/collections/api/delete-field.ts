import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface DeleteFieldInput {
  id: number;
  tableId: number;
}

export function deleteField({ id }: DeleteFieldInput): Promise<void> {
  return apiJson<void>(`/api/fields/${id}`, { method: 'DELETE' });
}

export function useDeleteField() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteField,
    onSuccess: (_, { tableId }) => client.invalidateQueries({ queryKey: queryKeys.table(tableId) }),
  });
}
