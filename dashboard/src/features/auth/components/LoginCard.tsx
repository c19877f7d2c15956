import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '@/components/Alert';
import { errorMessage } from '@/lib/api-client';
import { useLogin } from '@/features/auth/api/login';
import { paths } from '@/app/paths';

export function LoginCard() {
  const { t } = useTranslation();
  const login = useLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    login.mutate({ email: email.trim(), password });
  };

  return (
    <form className="card auth-card" onSubmit={submit} data-testid="login-form">
      <h2>{t('auth.login.title')}</h2>
      {login.isError && <Alert testId="login-error">{errorMessage(login.error)}</Alert>}
      <div className="field">
        <label htmlFor="login-email">{t('auth.email')}</label>
        <input
          id="login-email"
          name="email"
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="login-password">{t('auth.password')}</label>
        <input
          id="login-password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </div>
      <button
        type="submit"
        className="button button-primary"
        disabled={login.isPending}
        data-testid="login-submit"
      >
        {t('auth.login.submit')}
      </button>
      <Link to={paths.forgot.build()} className="muted-link">
        {t('auth.login.forgot')}
      </Link>
    </form>
  );
}
