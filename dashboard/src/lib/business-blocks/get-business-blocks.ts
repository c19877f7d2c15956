import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { BusinessBlock } from '@/lib/types';

/** GET /api/business/blocks → the caller's business's library (404 outside a business). */
export function getBusinessBlocks(): Promise<BusinessBlock[]> {
  return apiJson<BusinessBlock[]>('/api/business/blocks');
}

export const businessBlocksQueryOptions = queryOptions({
  queryKey: queryKeys.businessBlocks,
  queryFn: getBusinessBlocks,
});

export function useBusinessBlocks() {
  return useQuery(businessBlocksQueryOptions);
}

/** After a write: the editor's library (`GET /api/blocks`) and the business admin's list both show it. */
export function refreshBusinessLibrary(client: QueryClient): Promise<unknown> {
  return Promise.all([
    client.invalidateQueries({ queryKey: queryKeys.blocks }),
    client.invalidateQueries({ queryKey: queryKeys.businessBlocks }),
  ]);
}
