/**
 * The report's date range: a preset (the last 7, 30 or 90 days, the last 12 months; 30 days by
 * default) or two days the owner picked, kept in the URL (`?range=7d`, `?from=…&to=…`) so a
 * reload or a shared link shows the same figures. Days are UTC calendar days (`YYYY-MM-DD`), as
 * the server counts them; a preset ends today (UTC) and includes it.
 */

export const RANGE_PRESETS = ['7d', '30d', '90d', '12m'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];
export const DEFAULT_PRESET: RangePreset = '30d';

export interface DateRange {
  from: string;
  to: string;
}

/** What the screen shows: a preset's range, or a picked one (`preset` null). */
export interface RangeChoice {
  preset: RangePreset | null;
  range: DateRange;
}

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of a UTC midnight in milliseconds. */
function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** UTC midnight of a `YYYY-MM-DD` day, in milliseconds; NaN for anything else. */
export function dayStart(day: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return Number.NaN;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, date);
  // 2026-02-30 rolls over to March: not a day.
  return dayOf(ms) === day ? ms : Number.NaN;
}

export function isDay(value: string): boolean {
  return !Number.isNaN(dayStart(value));
}

/** Today, UTC. */
export function today(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

export function addDays(day: string, count: number): string {
  return dayOf(dayStart(day) + count * DAY_MS);
}

/** The days a preset covers, ending on (and including) `end`. */
export function presetRange(preset: RangePreset, end: string): DateRange {
  switch (preset) {
    case '7d':
      return { from: addDays(end, -6), to: end };
    case '30d':
      return { from: addDays(end, -29), to: end };
    case '90d':
      return { from: addDays(end, -89), to: end };
    case '12m': {
      // The same day a year before, and the day after it: 365 days (366 across a 29 February).
      const start = new Date(dayStart(end));
      start.setUTCFullYear(start.getUTCFullYear() - 1);
      return { from: addDays(dayOf(start.getTime()), 1), to: end };
    }
  }
}

export function isRangePreset(value: string): value is RangePreset {
  return (RANGE_PRESETS as readonly string[]).includes(value);
}

/**
 * The range the URL asks for: two valid days in order (`from` ≤ `to`), else its preset, else the
 * default preset; `end` is today.
 */
export function readRange(search: URLSearchParams, end: string): RangeChoice {
  const from = search.get('from') ?? '';
  const to = search.get('to') ?? '';
  if (isDay(from) && isDay(to) && from <= to) return { preset: null, range: { from, to } };
  const asked = search.get('range') ?? '';
  const preset = isRangePreset(asked) ? asked : DEFAULT_PRESET;
  return { preset, range: presetRange(preset, end) };
}

/** The URL query of a preset (the default one leaves the URL plain). */
export function presetSearch(preset: RangePreset): URLSearchParams {
  return new URLSearchParams(preset === DEFAULT_PRESET ? {} : { range: preset });
}

/** The URL query of a picked range. */
export function customSearch(range: DateRange): URLSearchParams {
  return new URLSearchParams({ from: range.from, to: range.to });
}

/** Every day from `from` to `to`, both included. */
export function daysOf({ from, to }: DateRange): string[] {
  const start = dayStart(from);
  const end = dayStart(to);
  if (Number.isNaN(start) || Number.isNaN(end)) return [];
  const days: string[] = [];
  for (let ms = start; ms <= end; ms += DAY_MS) days.push(dayOf(ms));
  return days;
}
