import { useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Plan } from '@/features/account/types';

/** GET /api/plans → every plan in every currency, prices in minor units. */
export function getPlans(): Promise<Plan[]> {
  return apiJson<Plan[]>('/api/plans');
}

export function usePlans() {
  return useQuery({ queryKey: queryKeys.plans, queryFn: getPlans, staleTime: Infinity });
}
