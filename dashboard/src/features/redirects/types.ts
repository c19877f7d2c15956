import type { Paginated, Redirect } from '@/lib/types';

/** A rule as the API returns it (spec 1 §3 "Redirect"). */
export type { Redirect };

export type RedirectPage = Paginated<Redirect>;

/** Orders the list offers (spec 1 §9: -created_at by default, created_at and from). */
export const REDIRECT_ORDERS = ['-created_at', 'created_at', 'from', '-from'] as const;
export type RedirectOrder = (typeof REDIRECT_ORDERS)[number];
export const DEFAULT_ORDER: RedirectOrder = '-created_at';

/** Page sizes offered; -1 lists every rule (spec 1 §9: page size 100, or -1 for all). */
export const PAGE_SIZES = [10, 25, 50, 100, -1] as const;
export const DEFAULT_PAGE_SIZE = 100;

export function isRedirectOrder(value: string): value is RedirectOrder {
  return (REDIRECT_ORDERS as readonly string[]).includes(value);
}

/** What the list asks the API for; kept in the URL's query string. */
export interface RedirectListQuery {
  page: number;
  order: RedirectOrder;
  term: string;
  limit: number;
}

/** Reads the list's state from the URL, falling back to the defaults for anything unusable. */
export function readListQuery(search: URLSearchParams): RedirectListQuery {
  const page = Number(search.get('page'));
  const limit = Number(search.get('limit'));
  const order = search.get('order') ?? '';
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    order: isRedirectOrder(order) ? order : DEFAULT_ORDER,
    term: search.get('term') ?? '',
    limit: (PAGE_SIZES as readonly number[]).includes(limit) ? limit : DEFAULT_PAGE_SIZE,
  };
}

/** The URL query for a list state, leaving out defaults so plain links stay plain. */
export function listSearch(query: RedirectListQuery): URLSearchParams {
  const search = new URLSearchParams();
  if (query.page !== 1) search.set('page', String(query.page));
  if (query.order !== DEFAULT_ORDER) search.set('order', query.order);
  if (query.term.trim() !== '') search.set('term', query.term.trim());
  if (query.limit !== DEFAULT_PAGE_SIZE) search.set('limit', String(query.limit));
  return search;
}
