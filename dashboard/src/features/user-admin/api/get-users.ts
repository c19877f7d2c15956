import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { AdminUserRow } from '@/features/user-admin/types';

/** GET /api/users → every account (administrators only; 403 otherwise). */
export function getUsers(): Promise<AdminUserRow[]> {
  return apiJson<AdminUserRow[]>('/api/users');
}

export const usersQueryOptions = queryOptions({ queryKey: queryKeys.erpUsers, queryFn: getUsers });

export function useUsers() {
  return useQuery(usersQueryOptions);
}
