import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/Alert';
import { errorMessage } from '@/lib/api-client';
import { useRegister } from '@/features/auth/api/register';

export function RegisterCard() {
  const { t } = useTranslation();
  const register = useRegister();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    register.mutate({ name: name.trim(), email: email.trim(), password });
  };

  return (
    <form className="card auth-card" onSubmit={submit} data-testid="register-form">
      <h2>{t('auth.register.title')}</h2>
      {register.isError && <Alert testId="register-error">{errorMessage(register.error)}</Alert>}
      <div className="field">
        <label htmlFor="register-name">{t('auth.name')}</label>
        <input
          id="register-name"
          name="name"
          autoComplete="name"
          required
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="register-email">{t('auth.email')}</label>
        <input
          id="register-email"
          name="email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="register-password">{t('auth.password')}</label>
        <input
          id="register-password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </div>
      <button
        type="submit"
        className="button button-primary"
        disabled={register.isPending}
        data-testid="register-submit"
      >
        {t('auth.register.submit')}
      </button>
    </form>
  );
}
