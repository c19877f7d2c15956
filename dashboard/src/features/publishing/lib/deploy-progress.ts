/**
 * Deploy progress (issue 22): the publish dialog shows the build's real steps as the server
 * streams them (POST /api/publish_v2/{id}/events), not timed messages.
 */
import type { PublishStep } from '@/features/publishing/types';

/** The kinds of step in the order a build reports them. */
export const STEP_ORDER = ['started', 'fonts', 'page', 'assets', 'live'] as const;

/**
 * What the dialog lists for the steps reported so far: the latest step of each kind, in build
 * order (page 3 of 5 replaces page 2 of 5, so the list stays short however many pages).
 */
export function progressLines(steps: readonly PublishStep[]): PublishStep[] {
  const latest = new Map<PublishStep['step'], PublishStep>();
  for (const step of steps) latest.set(step.step, step);
  return STEP_ORDER.flatMap((kind) => {
    const step = latest.get(kind);
    return step ? [step] : [];
  });
}
