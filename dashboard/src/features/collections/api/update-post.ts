import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { PostPayload } from '@/features/collections/lib/record-form';
import type { Post } from '@/features/collections/types';

export interface UpdatePostInput extends PostPayload {
  id: number;
}

export function updatePost({ id, ...body }: UpdatePostInput): Promise<Post> {
  return apiJson<Post>(`/api/posts/${id}`, { method: 'POST', body });
}

export function useUpdatePost() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updatePost,
    onSuccess: (post) => {
      client.setQueryData(queryKeys.post(post.id), post);
      return client.invalidateQueries({ queryKey: queryKeys.tableData(post.table_id) });
    },
  });
}
