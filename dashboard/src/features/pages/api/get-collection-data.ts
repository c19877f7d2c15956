import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** The parts of a collection the editor needs: its fields (for bindings and filters) and posts. */
export interface CollectionField {
  id: number;
  name: string;
  slug: string;
  type: string;
}

export interface CollectionPost {
  id: number;
  name: string;
  slug: string;
  created_at: string;
}

export interface CollectionData {
  table: { id: number; name: string; slug: string };
  fields: CollectionField[];
  posts: CollectionPost[];
}

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
