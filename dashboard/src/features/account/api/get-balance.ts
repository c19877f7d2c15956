import { useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Balance } from '@/features/account/types';

/** GET /api/transactions/balance → {amount, currency}; negative means owed. */
export function getBalance(): Promise<Balance> {
  return apiJson<Balance>('/api/transactions/balance');
}

export function useBalance() {
  return useQuery({ queryKey: queryKeys.balance, queryFn: getBalance });
}
