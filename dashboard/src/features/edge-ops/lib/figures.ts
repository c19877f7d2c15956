/**
 * Pure figures of the ops screen: ages, uptimes, error rates, the order of the nodes and the
 * chart's scale.
 * Ages are measured against the server's `now`, so a browser with a wrong clock reads them right.
 */
import type { EdgeNode } from '@/features/edge-ops/types';

/** Whole seconds from `from` to `to` (ISO 8601); 0 when `to` is earlier or either is not a date. */
export function secondsBetween(from: string, to: string): number {
  const seconds = Math.floor((Date.parse(to) - Date.parse(from)) / 1000);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
}

/** Errors per request since the node started; null before its first request. */
export function errorRate(node: Pick<EdgeNode, 'requests' | 'errors'>): number | null {
  return node.requests > 0 ? node.errors / node.requests : null;
}

/** Stale nodes first (they need someone's attention), then by region and id. */
export function sortNodes(nodes: readonly EdgeNode[]): EdgeNode[] {
  return [...nodes].sort(
    (a, b) =>
      Number(b.stale) - Number(a.stale) || a.region.localeCompare(b.region) || a.id.localeCompare(b.id),
  );
}

/** A duration split into its two largest units, for "2 d 3 h", "1 h 5 min", "4 min 10 s" or "45 s". */
export type DurationParts =
  | { unit: 'days'; d: number; h: number }
  | { unit: 'hours'; h: number; m: number }
  | { unit: 'minutes'; m: number; s: number }
  | { unit: 'seconds'; s: number };

export function durationParts(totalSeconds: number): DurationParts {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3_600);
  const m = Math.floor((seconds % 3_600) / 60);
  const s = seconds % 60;
  if (d > 0) return { unit: 'days', d, h };
  if (h > 0) return { unit: 'hours', h, m };
  if (m > 0) return { unit: 'minutes', m, s };
  return { unit: 'seconds', s };
}

/**
 * The top of a count axis with a middle line, for counts up to `max`: twice a round step (1, 2,
 * 2.5 or 5 times a power of ten, whole), so the three lines (0, step, top) are whole numbers
 * labelled exactly where they stand. At least 2: a quiet node's axis reads 0, 1, 2.
 */
export function axisTop(max: number): number {
  const half = Math.max(1, Number.isFinite(max) ? max : 0) / 2;
  for (let power = 1; ; power *= 10) {
    for (const factor of [1, 2, 2.5, 5]) {
      const step = factor * power;
      if (Number.isInteger(step) && step >= half) return 2 * step;
    }
  }
}
