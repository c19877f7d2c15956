import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Alert } from '@/components/Alert';
import { errorMessage } from '@/lib/api-client';
import { useNewPassword } from '@/features/auth/api/new-password';
import { paths } from '@/app/paths';

/** Reached from the reset e-mail: email and token come from the query string. */
export function NewPasswordRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const email = params.get('email') ?? '';
  const [token, setToken] = useState(params.get('token') ?? '');
  const [password, setPassword] = useState('');
  const newPassword = useNewPassword();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    newPassword.mutate(
      { email, password, token: token.trim() },
      {
        onSuccess: () =>
          void navigate(paths.login.build(), {
            replace: true,
            state: { notice: t('auth.newPassword.done') },
          }),
      },
    );
  };

  return (
    <div className="auth-page">
      <form className="card auth-card auth-card-single" onSubmit={submit} data-testid="new-password-form">
        <h2>{t('auth.newPassword.title')}</h2>
        {newPassword.isError && <Alert>{errorMessage(newPassword.error)}</Alert>}
        <div className="field">
          <label htmlFor="np-email">{t('auth.email')}</label>
          <input id="np-email" type="email" value={email} readOnly />
        </div>
        <div className="field">
          <label htmlFor="np-password">{t('auth.newPassword.password')}</label>
          <input
            id="np-password"
            type="password"
            autoComplete="new-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="np-token">{t('auth.newPassword.token')}</label>
          <input id="np-token" required value={token} onChange={(e) => setToken(e.target.value)} />
        </div>
        <button type="submit" className="button button-primary" disabled={newPassword.isPending}>
          {t('auth.newPassword.submit')}
        </button>
        <Link to={paths.login.build()} className="muted-link">
          {t('auth.backToLogin')}
        </Link>
      </form>
    </div>
  );
}
