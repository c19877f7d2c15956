import type { Paginated, Project } from '@/lib/types';

/** One submission (spec 1 §3 "Form history entry"); `data` is HTML. */
export interface FormEntry {
  id: number;
  project_id: number;
  created_at: string;
  url: string;
  submit: string;
  to: string;
  subject: string;
  data: string;
}

/** The per-project cap of the form history and what it deleted: the owner's notice. */
export interface HistoryLimit {
  max_entries: number;
  trimmed: number;
  last_trimmed_at: string | null;
  /** `trimmed`: older entries were deleted; `near`: at least 90 % full. */
  warning: 'trimmed' | 'near' | null;
}

export interface FormHistory {
  project: Project;
  history: Paginated<FormEntry>;
  limit: HistoryLimit;
}

/**
 * Where form notifications go: the owner's own address, or `formEmail` once its mailbox
 * confirmed it (until then nothing is sent there).
 */
export type FormEmailStatus = 'owner' | 'owner_unconfirmed' | 'pending' | 'confirmed';

export interface FormEmail {
  email: string | null;
  recipient: string;
  status: FormEmailStatus;
  /** When the last confirmation e-mail went out (`pending`; null: none could be sent yet). */
  requested_at: string | null;
  confirmed_at: string | null;
}

/** What a confirmation link confirmed. */
export interface ConfirmedFormEmail {
  email: string;
  site: string;
}

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
