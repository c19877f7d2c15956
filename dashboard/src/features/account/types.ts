/** The own-account screen's shapes (spec 2 §3 "User", "Transaction"; §9 plans). Amounts are integer minor units. */
import type { Currency, Language } from '@/lib/types';

/** GET /api/transactions/balance: negative means owed. */
export interface Balance {
  amount: number;
  currency: Currency;
}

/** GET /api/user/storage: what the account (a business, for its members) keeps against its fair share. */
export interface StorageUsage {
  bytes: number;
  max_bytes: number;
  files: number;
  max_files: number;
  records: number;
  max_records: number;
  uploads_per_minute: number;
  business: boolean;
}

/** One day of a month's history: only days with transactions. */
export interface DayTotal {
  /** yyyy-mm-dd */
  date: string;
  total: number;
  count: number;
}

/** GET /api/transactions/{yyyy-mm}. */
export interface MonthTransactions {
  /** yyyy-mm */
  month: string;
  currency: Currency;
  total: number;
  days: DayTotal[];
}

/** One row of GET /api/transactions/{yyyy-mm}/{dd}. */
export interface Transaction {
  id: number;
  created_at: string;
  description: string;
  amount: number;
  currency: Currency;
}

/** Body of POST /api/user. */
export interface AccountPayload {
  name?: string;
  language?: Language;
  currency?: Currency;
}

/** GET /api/stripe-config: the card provider's public key and the URL of its client library. */
export interface StripeConfig {
  publicKey: string;
  jsUrl: string;
}
