import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Post } from '@/features/collections/types';

/** A record; its fields arrive as a list of {field_id, value}. */
export function getPost(id: number): Promise<Post> {
  return apiJson<Post>(`/api/posts/${id}`);
}

export function postQueryOptions(id: number) {
  return queryOptions({
    queryKey: queryKeys.post(id),
    queryFn: () => getPost(id),
    enabled: Number.isInteger(id) && id > 0,
  });
}

export function usePost(id: number) {
  return useQuery(postQueryOptions(id));
}
