import { useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { StorageUsage } from '@/features/account/types';

/** GET /api/user/storage → the account's files, bytes and records, each with its quota. */
export function getStorage(): Promise<StorageUsage> {
  return apiJson<StorageUsage>('/api/user/storage');
}

export function useStorage() {
  return useQuery({ queryKey: queryKeys.storageUsage, queryFn: getStorage });
}
