import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';
import { ConfirmDialog } from '@/components/ConfirmDialog';

/**
 * Leaving with unsaved changes asks first (spec §4): in-app navigation through the router's
 * blocker and a confirmation dialog titled `message` (the returned element, which the screen
 * renders); closing or reloading the tab through `beforeunload` (the browser shows its own
 * text there).
 */
export function useLeaveGuard(dirty: boolean, message: string): ReactNode {
  const { t } = useTranslation();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!dirty) return;
    const onUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onUnload);
    return () => window.removeEventListener('beforeunload', onUnload);
  }, [dirty]);

  if (blocker.state !== 'blocked') return null;
  return (
    <ConfirmDialog
      title={message}
      message={t('kit.confirm.leaveMessage')}
      confirmLabel={t('kit.confirm.leaveAction')}
      destructive
      onConfirm={() => blocker.proceed()}
      onCancel={() => blocker.reset()}
    />
  );
}
