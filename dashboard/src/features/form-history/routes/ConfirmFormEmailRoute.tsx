import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { paths } from '@/app/paths';
import { Alert } from '@/components/Alert';
import { errorMessage } from '@/lib/api-client';
import { useConfirmFormEmail } from '@/features/form-history/api/confirm-form-email';
import { ActionButton } from '@/components/ActionButton';

/**
 * "/confirm-form-email?token=…": reached from the e-mail that asks an address to receive a site's
 * form messages. Public (the reader of that mailbox may have no account), and it confirms only when
 * the reader presses the button, so a mail scanner that follows links confirms nothing.
 */
export function ConfirmFormEmailRoute() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const confirm = useConfirmFormEmail();

  return (
    <div className="auth-page">
      <div className="card auth-card auth-card-single" data-testid="confirm-form-email">
        <h2>{t('formHistory.confirm.title')}</h2>
        {confirm.isSuccess ? (
          <Alert kind="success" testId="confirm-form-email-done">
            {t('formHistory.confirm.done', { email: confirm.data.email, site: confirm.data.site })}
          </Alert>
        ) : (
          <>
            <p>{t('formHistory.confirm.intro')}</p>
            {!token && <Alert>{t('formHistory.confirm.noToken')}</Alert>}
            {confirm.isError && (
              <Alert testId="confirm-form-email-error">{errorMessage(confirm.error)}</Alert>
            )}
            <ActionButton
              variant="primary"
              disabled={!token || confirm.isPending}
              onClick={() => confirm.mutate(token)}
              testId="confirm-form-email-button"
            >
              {t('formHistory.confirm.button')}
            </ActionButton>
            <p className="muted">{t('formHistory.confirm.ignore')}</p>
          </>
        )}
        <Link to={paths.login.build()} className="muted-link">
          {t('auth.backToLogin')}
        </Link>
      </div>
    </div>
  );
}
