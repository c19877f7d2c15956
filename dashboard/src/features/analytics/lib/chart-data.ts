/**
 * What the visits chart draws, as uPlot takes it: one x per day of the range (its UTC midday, in
 * seconds: the x axis spans the range's days whole, from the first one's midnight to the end of
 * the last one, so a day's point sits in the middle of its day), visitors and views per day (0
 * for a day the report leaves out), and the deploys within the range, as instants for the markers.
 */
import type { AnalyticsDay, AnalyticsDeploy } from '@/features/analytics/api/types';
import { dayStart, daysOf, type DateRange } from './range';

const DAY_S = 86_400;

export interface ChartSeries {
  /** UTC midday of each day, in seconds. */
  xs: number[];
  visitors: number[];
  views: number[];
}

/** The range's days with their figures; a day the report does not list counts 0. */
export function chartSeries(days: readonly AnalyticsDay[], range: DateRange): ChartSeries {
  const byDay = new Map(days.map((day) => [day.date, day]));
  const all = daysOf(range);
  return {
    xs: all.map((day) => dayStart(day) / 1000 + DAY_S / 2),
    visitors: all.map((day) => byDay.get(day)?.visitors ?? 0),
    views: all.map((day) => byDay.get(day)?.views ?? 0),
  };
}

/** The x axis: the first day's midnight to the end of the last day, UTC, in seconds. */
export function chartSpan(range: DateRange): [number, number] {
  return [dayStart(range.from) / 1000, dayStart(range.to) / 1000 + DAY_S];
}

/**
 * The deploys within the range, as instants in seconds (a marker sits where in its day the
 * deploy happened), in time order; those outside the range and unreadable instants are left out.
 */
export function deployMarks(deploys: readonly AnalyticsDeploy[], range: DateRange): number[] {
  const [start, end] = chartSpan(range);
  return deploys
    .map((deploy) => Date.parse(deploy.at) / 1000)
    .filter((at) => Number.isFinite(at) && at >= start && at < end)
    .sort((a, b) => a - b);
}
