import { useTranslation } from 'react-i18next';
import type { PublishStep } from '@/features/publishing/types';
import { progressLines } from '@/features/publishing/lib/deploy-progress';
import { useFormat } from '@/lib/format';
import { LiveStatus } from '@/components/LiveStatus';

/**
 * The build's steps as the server reports them: each step reached so far with a check, the
 * latest with a spinner; "connecting" until the first one arrives.
 */
export function DeployProgress({ steps }: { steps: readonly PublishStep[] }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const lines = progressLines(steps);
  const text = (step: PublishStep): string => {
    switch (step.step) {
      case 'started':
        return t('publishing.steps.started', { pages: step.pages });
      case 'fonts':
        return t('publishing.steps.fonts', { faces: step.faces });
      case 'page':
        return t('publishing.steps.page', { index: step.index, total: step.total, name: step.name });
      case 'assets':
        return t('publishing.steps.assets', { files: step.files, size: fmt.bytes(step.bytes) });
      case 'live':
        return t('publishing.steps.live');
    }
  };
  const current = lines.at(-1)?.step ?? 'connecting';
  return (
    <LiveStatus className="deploy-progress" testId="deploy-progress" data={{ 'data-step': current }}>
      <ol className="deploy-steps">
        {lines.length === 0 && (
          <li data-testid="deploy-step" data-step="connecting">
            <span className="spinner" aria-hidden="true" /> {t('publishing.steps.connecting')}
          </li>
        )}
        {lines.map((step, index) => {
          const done = index < lines.length - 1;
          return (
            <li key={step.step} data-testid="deploy-step" data-step={step.step} data-done={done}>
              {done ? (
                <span className="deploy-step-done" aria-hidden="true">
                  ✓
                </span>
              ) : (
                <span className="spinner" aria-hidden="true" />
              )}{' '}
              {text(step)}
            </li>
          );
        })}
      </ol>
    </LiveStatus>
  );
}
