import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { LibraryBlock } from '@/lib/types';

/** POST /erp/searchBlocks {term} → the matching blocks. */
export function searchBlocks(term: string): Promise<LibraryBlock[]> {
  return apiJson<LibraryBlock[]>('/erp/searchBlocks', { method: 'POST', body: { term } });
}

/** Under the library's key, so every admin change (which invalidates the library) refreshes the results too. */
export const searchBlocksQueryOptions = (term: string) =>
  queryOptions({
    queryKey: [...queryKeys.blocks, 'admin-search', term] as const,
    queryFn: () => searchBlocks(term),
  });

/** The results for the submitted term; idle while there is none. */
export function useSearchBlocks(term: string | null) {
  return useQuery({ ...searchBlocksQueryOptions(term ?? ''), enabled: term !== null });
}
