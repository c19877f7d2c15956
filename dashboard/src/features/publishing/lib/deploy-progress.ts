/**
 * Deploy progress (spec 1 §4, §9): four messages spread evenly over the expected deploy time.
 * The last one stays until the server answers, however long that takes.
 */
import { useEffect, useState } from 'react';

/** Catalogue keys under `publishing.progress`, in the order they are shown. */
export const DEPLOY_MESSAGES = ['connecting', 'converting', 'uploading', 'optimizing'] as const;

export type DeployMessage = (typeof DEPLOY_MESSAGES)[number];

/** Expected duration of a deploy (spec 1 §9). */
export const DEPLOY_EXPECTED_MS = 10_000;

/** How long each message is shown: 2.5 s. */
export const DEPLOY_STEP_MS = DEPLOY_EXPECTED_MS / DEPLOY_MESSAGES.length;

/** The message to show `elapsedMs` after the deploy started. */
export function deployMessageAt(elapsedMs: number): DeployMessage {
  const step = Math.min(DEPLOY_MESSAGES.length - 1, Math.max(0, Math.floor(elapsedMs / DEPLOY_STEP_MS)));
  return DEPLOY_MESSAGES[step] ?? 'connecting';
}

/**
 * The current message while `running`; starts again from the first each time `running` turns on.
 * One timer per change of message, so nothing ticks once the last message is up.
 */
export function useDeployProgress(running: boolean): DeployMessage {
  const [step, setStep] = useState(0);
  useEffect(() => {
    if (!running) return undefined;
    const timers = DEPLOY_MESSAGES.slice(1).map((_, index) =>
      setTimeout(() => setStep(index + 1), (index + 1) * DEPLOY_STEP_MS),
    );
    // Back to the first message once it stops, ready for the next run.
    return () => {
      timers.forEach(clearTimeout);
      setStep(0);
    };
  }, [running]);
  return deployMessageAt(step * DEPLOY_STEP_MS);
}
