import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '@/components/Alert';
import { errorMessage } from '@/lib/api-client';
import { useForgot } from '@/features/auth/api/forgot';
import { paths } from '@/app/paths';

export function ForgotRoute() {
  const { t } = useTranslation();
  const forgot = useForgot();
  const [email, setEmail] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    forgot.mutate({ email: email.trim() });
  };

  return (
    <div className="auth-page">
      <form className="card auth-card auth-card-single" onSubmit={submit} data-testid="forgot-form">
        <h2>{t('auth.forgot.title')}</h2>
        {forgot.isError && <Alert>{errorMessage(forgot.error)}</Alert>}
        {forgot.isSuccess && (
          <Alert kind="success" testId="forgot-sent">
            {t('auth.forgot.sent')}
          </Alert>
        )}
        <div className="field">
          <label htmlFor="forgot-email">{t('auth.email')}</label>
          <input
            id="forgot-email"
            type="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </div>
        <button type="submit" className="button button-primary" disabled={forgot.isPending}>
          {t('auth.forgot.submit')}
        </button>
        <Link to={paths.login.build()} className="muted-link">
          {t('auth.backToLogin')}
        </Link>
      </form>
    </div>
  );
}
