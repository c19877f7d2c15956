import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { paths } from '@/app/paths';
import { Alert } from '@/components/Alert';
import { ActionButton } from '@/components/ActionButton';
import { errorMessage } from '@/lib/api-client';
import { useConfirmEmail } from '@/features/account/api/email-confirmation';

/**
 * "/confirm-email?token=…": reached from the e-mail that asks an account's sign-in address to
 * confirm it takes notification mail. Public, and it confirms only when the reader presses the
 * button, so a mail scanner that follows links confirms nothing.
 */
export function ConfirmEmailRoute() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const confirm = useConfirmEmail();

  return (
    <div className="auth-page">
      <div className="card auth-card auth-card-single" data-testid="confirm-email">
        <h2>{t('account.emailConfirm.title')}</h2>
        {confirm.isSuccess ? (
          <Alert kind="success" testId="confirm-email-done">
            {t('account.emailConfirm.done')}
          </Alert>
        ) : (
          <>
            <p>{t('account.emailConfirm.intro')}</p>
            {!token && <Alert>{t('account.emailConfirm.noToken')}</Alert>}
            {confirm.isError && <Alert testId="confirm-email-error">{errorMessage(confirm.error)}</Alert>}
            <ActionButton
              variant="primary"
              disabled={!token || confirm.isPending}
              onClick={() => confirm.mutate(token)}
              testId="confirm-email-button"
            >
              {t('account.emailConfirm.button')}
            </ActionButton>
            <p className="muted">{t('account.emailConfirm.ignore')}</p>
          </>
        )}
        <Link to={paths.login.build()} className="muted-link">
          {t('auth.backToLogin')}
        </Link>
      </div>
    </div>
  );
}
