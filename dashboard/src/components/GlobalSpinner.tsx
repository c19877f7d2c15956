import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { getRunningRequests, subscribeRunningRequests } from '@/lib/api-client';

/** Shown while the fetch wrapper counts running requests above zero. */
export function GlobalSpinner() {
  const { t } = useTranslation();
  const running = useSyncExternalStore(subscribeRunningRequests, getRunningRequests);
  if (running <= 0) return null;
  return (
    <div
      className="global-spinner"
      role="progressbar"
      aria-label={t('common.loading')}
      data-testid="global-spinner"
    >
      <span className="spinner" />
    </div>
  );
}
