/** Form history and form e-mail shapes (spec 1 §3 "Form history entry"; `data` is HTML), from the API's document. */
export type {
  ConfirmedFormEmail,
  FormEmail,
  FormEmailStatus,
  FormEntry,
  FormHistory,
  HistoryLimit,
} from '@/lib/types';

export const FORM_HISTORY_ORDERS = ['-created_at', 'created_at'] as const;
export type FormHistoryOrder = (typeof FORM_HISTORY_ORDERS)[number];

export function isFormHistoryOrder(value: string): value is FormHistoryOrder {
  return (FORM_HISTORY_ORDERS as readonly string[]).includes(value);
}

/** Entries per page. */
export const HISTORY_PAGE_SIZE = 100;

/**
 * What the list shows, as the screen keeps it in its address: text to find in an entry, and the
 * first and last day (`YYYY-MM-DD`, the user's own days) it was received on. Empty: no limit.
 */
export interface HistoryFilter {
  q: string;
  from: string;
  to: string;
}

export const NO_FILTER: HistoryFilter = { q: '', from: '', to: '' };
