import type { Paginated, Project } from '../../lib/types';

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

export interface FormHistory {
  project: Project;
  history: Paginated<FormEntry>;
}

export const FORM_HISTORY_ORDERS = ['-created_at', 'created_at'] as const;
export type FormHistoryOrder = (typeof FORM_HISTORY_ORDERS)[number];

export function isFormHistoryOrder(value: string): value is FormHistoryOrder {
  return (FORM_HISTORY_ORDERS as readonly string[]).includes(value);
}

/** Entries per page. */
export const HISTORY_PAGE_SIZE = 100;
