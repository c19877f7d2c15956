import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { BlockLibrary } from '@/features/pages/types';

/** The global block library by category, and the user's My Blocks. */
export function getBlocks(): Promise<BlockLibrary> {
  return apiJson<BlockLibrary>('/api/blocks');
}

export const blocksQueryOptions = queryOptions({
  queryKey: queryKeys.blocks,
  queryFn: getBlocks,
  staleTime: 5 * 60_000,
});

export function useBlocks() {
  return useQuery(blocksQueryOptions);
}
