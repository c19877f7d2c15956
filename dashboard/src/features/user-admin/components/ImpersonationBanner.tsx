import { useTranslation } from 'react-i18next';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { useOptionalUser } from '@/lib/auth/get-user';
import { useLoginBack } from '@/features/user-admin/api/login-back';
import { ActionButton } from '@/components/ActionButton';

/**
 * Shown on every signed-in page while an administrator uses 'login as' (GET /api/user carries
 * impersonator_id): whose account this is, and a way back to the administrator's own.
 */
export function ImpersonationBanner() {
  const { t } = useTranslation();
  const { data: user } = useOptionalUser();
  const loginBack = useLoginBack();
  if (!user || typeof user.impersonator_id !== 'number') return null;
  return (
    <div className="alert alert-info impersonation-banner" role="status" data-testid="impersonation-banner">
      <span>{t('impersonation.banner', { name: user.name, email: user.email })}</span>{' '}
      <ActionButton
        disabled={loginBack.isPending}
        onClick={() =>
          loginBack.mutate(undefined, { onError: (failure) => toast.error(errorMessage(failure)) })
        }
        testId="impersonation-back"
      >
        {t('impersonation.back')}
      </ActionButton>
    </div>
  );
}
