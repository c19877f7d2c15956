import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { BusinessUser } from '@/features/business-users/types';

/** GET /api/business/users → the caller's business users (403 for anyone but a business admin). */
export function getBusinessUsers(): Promise<BusinessUser[]> {
  return apiJson<BusinessUser[]>('/api/business/users');
}

export const businessUsersQueryOptions = queryOptions({
  queryKey: queryKeys.businessUsers,
  queryFn: getBusinessUsers,
});

export function useBusinessUsers() {
  return useQuery(businessUsersQueryOptions);
}
