/** The own-account screen's shapes (spec 2 §3 "User", "Transaction"; §9 plans), from the API's document. */
export type {
  AccountPayload,
  Balance,
  DayTotal,
  MonthTransactions,
  StorageUsage,
  StripeConfig,
  Transaction,
} from '@/lib/types';
