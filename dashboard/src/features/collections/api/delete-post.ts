import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface DeletePostInput {
  id: number;
  tableId: number;
}

export function deletePost({ id }: DeletePostInput): Promise<void> {
  return apiJson<void>(`/api/posts/${id}`, { method: 'DELETE' });
}

export function useDeletePost() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deletePost,
    onSuccess: (_, { id, tableId }) => {
      client.removeQueries({ queryKey: queryKeys.post(id) });
      return client.invalidateQueries({ queryKey: queryKeys.tableData(tableId) });
    },
  });
}
