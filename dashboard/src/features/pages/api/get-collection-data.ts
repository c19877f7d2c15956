import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { components } from '@/lib/api/schema';

/**
 * What the editor reads of a collection (GET /api/data/{table_id}): its fields (for bindings and
 * filters) and its first posts, typed from the API's generated schema (`DataView`).
 */
export type CollectionData = components['schemas']['DataView'];
/** The field's parts the editor uses. */
export type CollectionField = Pick<CollectionData['fields'][number], 'id' | 'name' | 'slug' | 'type'>;
/** The post's parts the editor uses. */
export type CollectionPost = Pick<CollectionData['posts'][number], 'id' | 'name' | 'slug' | 'created_at'>;

/** GET /api/data/{table_id}: the collection, its fields and its first page of posts. */
export function getCollectionData(tableId: number): Promise<CollectionData> {
  return apiJson<CollectionData>(`/api/data/${tableId}?page=1&limit=100`);
}

export function collectionDataQueryOptions(tableId: number | null | undefined) {
  const id = tableId ?? 0;
  return queryOptions({
    queryKey: [...queryKeys.tableData(id), 'editor'],
    queryFn: () => getCollectionData(id),
    enabled: Number.isInteger(id) && id > 0,
  });
}

export function useCollectionData(tableId: number | null | undefined) {
  return useQuery(collectionDataQueryOptions(tableId));
}
