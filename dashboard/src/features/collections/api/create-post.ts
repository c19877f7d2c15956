import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { PostPayload } from '@/features/collections/lib/record-form';
import type { Post } from '@/features/collections/types';

export interface CreatePostInput extends PostPayload {
  table_id: number;
}

export function createPost(input: CreatePostInput): Promise<Post> {
  return apiJson<Post>('/api/posts', { method: 'POST', body: input });
}

export function useCreatePost() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createPost,
    onSuccess: (post) => {
      client.setQueryData(queryKeys.post(post.id), post);
      return client.invalidateQueries({ queryKey: queryKeys.tableData(post.table_id) });
    },
  });
}
