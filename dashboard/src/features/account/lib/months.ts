/** Month keys ("yyyy-mm") of the transaction history and their steps. */

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

/** "2026-03" as a long month name in the interface language ("março de 2026", "March 2026"). */
export function monthLabel(month: string, language: string): string {
  const [year, index] = month.split('-').map(Number) as [number, number];
  return new Intl.DateTimeFormat(language, { month: 'long', year: 'numeric' }).format(
    new Date(year, index - 1, 1),
  );
}

/** "2026-03-05" → "05/03/2026", without going through time zones. */
export function formatDay(date: string): string {
  const [year, month, day] = date.split('-');
  return `${day}/${month}/${year}`;
}

/** "2026-03-05" → the day part, "05". */
export function dayOf(date: string): string {
  return date.slice(8, 10);
}
