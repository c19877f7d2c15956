import { describe, expect, it } from 'vitest';
import type { EdgeNode } from '@/features/edge-ops/types';
import { axisTop, durationParts, errorRate, secondsBetween, sortNodes } from './figures';

const node = (id: string, region: string, stale: boolean): EdgeNode => ({
  id,
  version: '0.1.0',
  region,
  started_at: '2026-11-24T11:00:00Z',
  last_seen_at: '2026-11-24T11:59:58Z',
  stale,
  requests: 0,
  errors: 0,
  p99_ms: null,
  cache_hit_ratio: null,
  certificates: 0,
  recent_errors: [],
  history: [],
});

describe('edge figures', () => {
  it('measures whole seconds between two instants, never below zero', () => {
    expect(secondsBetween('2026-11-24T11:59:58Z', '2026-11-24T12:00:00Z')).toBe(2);
    expect(secondsBetween('2026-11-24T11:00:00.900Z', '2026-11-24T12:00:00Z')).toBe(3599);
    expect(secondsBetween('2026-11-24T12:00:05Z', '2026-11-24T12:00:00Z')).toBe(0);
    expect(secondsBetween('not a date', '2026-11-24T12:00:00Z')).toBe(0);
  });

  it('rates errors per request, with no rate before the first request', () => {
    expect(errorRate({ requests: 200, errors: 3 })).toBe(0.015);
    expect(errorRate({ requests: 0, errors: 0 })).toBeNull();
  });

  it('puts stale nodes first, then orders by region and id', () => {
    const sorted = sortNodes([
      node('b', 'us-east', false),
      node('c', 'us-east', true),
      node('a', 'us-east', false),
      node('z', 'sa-east', false),
    ]);
    expect(sorted.map((n) => n.id)).toEqual(['c', 'z', 'a', 'b']);
  });

  it('splits durations into their two largest units', () => {
    expect(durationParts(45)).toEqual({ unit: 'seconds', s: 45 });
    expect(durationParts(250)).toEqual({ unit: 'minutes', m: 4, s: 10 });
    expect(durationParts(3_600)).toEqual({ unit: 'hours', h: 1, m: 0 });
    expect(durationParts(2 * 86_400 + 3 * 3_600 + 59)).toEqual({ unit: 'days', d: 2, h: 3 });
    expect(durationParts(-3)).toEqual({ unit: 'seconds', s: 0 });
  });
});

describe('axisTop', () => {
  it('gives whole, round lines at 0, half and top, never two lines with one label', () => {
    const cases: [number, number][] = [
      [0, 2],
      [1, 2],
      [2, 2],
      [3, 4],
      [5, 10],
      [7, 10],
      [10, 10],
      [11, 20],
      [21, 40],
      [41, 50],
      [120, 200],
      [1500, 2000],
      [2600, 4000],
      [Number.NaN, 2],
    ];
    for (const [max, top] of cases) {
      expect([max, axisTop(max)]).toEqual([max, top]);
      expect(Number.isInteger(axisTop(max) / 2)).toBe(true);
    }
  });
});
