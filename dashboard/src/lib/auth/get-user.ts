/**
 * The signed-in user (GET /api/user). Shared by every feature, like bulletproof-react's
 * lib/auth: 401 means "signed out" and resolves to null instead of failing.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { User } from '@/lib/types';

export async function getUser(): Promise<User | null> {
  try {
    return await apiJson<User>('/api/user');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export const userQueryOptions = queryOptions({
  queryKey: queryKeys.user,
  queryFn: getUser,
  staleTime: Infinity,
});

export function useUser() {
  return useQuery(userQueryOptions);
}
