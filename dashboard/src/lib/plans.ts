import { useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Currency, PlanCode } from '@/lib/types';

/**
 * The plans (spec 2 §9), shared by the account screen (the plans modal) and publishing (what a
 * published site costs): shapes and the query.
 */
export type SupportChannel = 'email' | 'chat' | 'whatsapp';

/** One plan in one currency (GET /api/plans). */
export interface Plan {
  plan: PlanCode;
  currency: Currency;
  name: string;
  /** Monthly fee in minor units; 0 means no monthly fee. */
  monthly_fee: number;
  /** Price per site per month, in minor units. */
  per_site: number;
  support: SupportChannel[];
}

/** GET /api/plans → every plan in every currency, prices in minor units. */
export function getPlans(): Promise<Plan[]> {
  return apiJson<Plan[]>('/api/plans');
}

export function usePlans() {
  return useQuery({ queryKey: queryKeys.plans, queryFn: getPlans, staleTime: Infinity });
}

/** The plan a user pays in their currency (an unknown plan is billed as basic, as on the server). */
export function planFor(plans: Plan[], plan: PlanCode | undefined, currency: Currency): Plan | undefined {
  const code = plan === 'agency' ? 'agency' : 'basic';
  return plans.find((item) => item.plan === code && item.currency === currency);
}
