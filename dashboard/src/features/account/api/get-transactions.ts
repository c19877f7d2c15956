import { useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MonthTransactions, Transaction } from '@/features/account/types';

/** GET /api/transactions/{yyyy-mm} → the month's total and one row per day with transactions. */
export function getMonthTransactions(month: string): Promise<MonthTransactions> {
  return apiJson<MonthTransactions>(`/api/transactions/${month}`);
}

export function useMonthTransactions(month: string) {
  return useQuery({
    queryKey: queryKeys.transactionMonth(month),
    queryFn: () => getMonthTransactions(month),
  });
}

/** GET /api/transactions/{yyyy-mm}/{dd} → that day's transactions. */
export function getDayTransactions(month: string, day: string): Promise<Transaction[]> {
  return apiJson<Transaction[]>(`/api/transactions/${month}/${day}`);
}

export function useDayTransactions(month: string, day: string) {
  return useQuery({
    queryKey: queryKeys.transactionDay(month, day),
    queryFn: () => getDayTransactions(month, day),
  });
}
