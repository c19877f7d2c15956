import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { BusinessUser } from '@/features/business-users/types';

/** GET /api/business/users/{id} → name, email, is_business_admin, permissions (404 outside the caller's business). */
export function getBusinessUser(id: number): Promise<BusinessUser> {
  return apiJson<BusinessUser>(`/api/business/users/${id}`);
}

export const businessUserQueryOptions = (id: number) =>
  queryOptions({ queryKey: queryKeys.businessUser(id), queryFn: () => getBusinessUser(id) });

export function useBusinessUser(id: number) {
  return useQuery({ ...businessUserQueryOptions(id), enabled: Number.isInteger(id) });
}
