import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Library } from '@/features/block-admin/types';

/**
 * The global library by category (GET /api/blocks). Same key as the editor's library, so an
 * admin change here refreshes the editor too.
 */
export function getLibrary(): Promise<Library> {
  return apiJson<Library>('/api/blocks');
}

export const libraryQueryOptions = queryOptions({ queryKey: queryKeys.blocks, queryFn: getLibrary });

export function useLibrary() {
  return useQuery(libraryQueryOptions);
}
