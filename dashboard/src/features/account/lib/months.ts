/** Month keys ("yyyy-mm") of the transaction history and their steps; shown through `@/lib/format`. */

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** The month of a date, in local time: "2026-03". */
export function monthOf(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}`;
}

/** "2026-01", -1 → "2025-12". */
export function addMonths(month: string, by: number): string {
  const [year, index] = month.split('-').map(Number) as [number, number];
  const total = year * 12 + (index - 1) + by;
  return `${Math.floor(total / 12)}-${pad((total % 12) + 1)}`;
}

/** "2026-03-05" → the day part, "05". */
export function dayOf(date: string): string {
  return date.slice(8, 10);
}
