import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface DeletePostsInput {
  tableId: number;
  selected: number[];
}

/** Bulk delete of the selected records; answers how many went. */
export function deletePosts({ selected }: DeletePostsInput): Promise<{ deleted: number }> {
  return apiJson<{ deleted: number }>('/api/posts', { method: 'DELETE', body: { selected } });
}

export function useDeletePosts() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deletePosts,
    onSuccess: (_, { tableId, selected }) => {
      selected.forEach((id) => client.removeQueries({ queryKey: queryKeys.post(id) }));
      return client.invalidateQueries({ queryKey: queryKeys.tableData(tableId) });
    },
  });
}
