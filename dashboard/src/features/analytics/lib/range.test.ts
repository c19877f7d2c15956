import { describe, expect, it } from 'vitest';
import { addDays, customSearch, daysOf, isDay, presetRange, presetSearch, readRange, today } from './range';

describe('analytics range', () => {
  it('ends each preset today, today included', () => {
    expect(presetRange('7d', '2026-11-29')).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(presetRange('30d', '2026-11-29')).toEqual({ from: '2026-10-31', to: '2026-11-29' });
    expect(presetRange('90d', '2026-11-29')).toEqual({ from: '2026-09-01', to: '2026-11-29' });
    expect(presetRange('12m', '2026-11-29')).toEqual({ from: '2025-11-30', to: '2026-11-29' });
    // Across a leap day, 12 months are 366 days.
    expect(daysOf(presetRange('12m', '2028-03-01'))).toHaveLength(366);
    expect(daysOf(presetRange('30d', '2026-03-01'))).toHaveLength(30);
  });

  it('reads UTC days only', () => {
    expect(today(new Date('2026-11-29T23:30:00-03:00'))).toBe('2026-11-30');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(isDay('2026-02-29')).toBe(false);
    expect(isDay('2028-02-29')).toBe(true);
    expect(isDay('29/11/2026')).toBe(false);
  });

  it('reads the URL: two days in order, else the preset, else 30 days', () => {
    const read = (query: string) => readRange(new URLSearchParams(query), '2026-11-29');
    expect(read('')).toEqual({ preset: '30d', range: { from: '2026-10-31', to: '2026-11-29' } });
    expect(read('range=7d')).toEqual({ preset: '7d', range: { from: '2026-11-23', to: '2026-11-29' } });
    expect(read('range=1y').preset).toBe('30d');
    expect(read('from=2026-01-01&to=2026-01-31')).toEqual({
      preset: null,
      range: { from: '2026-01-01', to: '2026-01-31' },
    });
    expect(read('from=2026-02-01&to=2026-01-31&range=90d').preset).toBe('90d');
    expect(read('from=2026-02-30&to=2026-03-31').preset).toBe('30d');
  });

  it('keeps the default out of the URL', () => {
    expect(presetSearch('30d').toString()).toBe('');
    expect(presetSearch('12m').toString()).toBe('range=12m');
    expect(customSearch({ from: '2026-01-01', to: '2026-01-31' }).toString()).toBe(
      'from=2026-01-01&to=2026-01-31',
    );
  });
});
