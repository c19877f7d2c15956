import { describe, expect, it } from 'vitest';
import { chartSeries, chartSpan, deployMarks } from './chart-data';

const range = { from: '2026-11-01', to: '2026-11-03' };
const midnight = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

describe('visits chart data', () => {
  it('puts each day of the range at its midday, 0 for a day the report leaves out', () => {
    const series = chartSeries(
      [
        { date: '2026-11-03', views: 9, visitors: 4 },
        { date: '2026-11-01', views: 5, visitors: 2 },
        { date: '2026-10-31', views: 100, visitors: 100 },
      ],
      range,
    );
    expect(series.xs).toEqual(
      ['2026-11-01', '2026-11-02', '2026-11-03'].map((day) => midnight(day) + 43_200),
    );
    expect(series.visitors).toEqual([2, 0, 4]);
    expect(series.views).toEqual([5, 0, 9]);
  });

  it('spans the days whole, and marks only the deploys within them, in time order', () => {
    expect(chartSpan(range)).toEqual([midnight('2026-11-01'), midnight('2026-11-04')]);
    const marks = deployMarks(
      [
        { id: 3, at: '2026-11-03T23:59:00Z' },
        { id: 1, at: '2026-11-01T10:00:00Z' },
        { id: 4, at: '2026-11-04T00:00:00Z' },
        { id: 0, at: '2026-10-31T23:59:59Z' },
        { id: 5, at: 'not a date' },
      ],
      range,
    );
    expect(marks).toEqual([
      Date.parse('2026-11-01T10:00:00Z') / 1000,
      Date.parse('2026-11-03T23:59:00Z') / 1000,
    ]);
  });
});
