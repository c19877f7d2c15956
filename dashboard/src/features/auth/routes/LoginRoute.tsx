import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { Alert } from '@/components/Alert';
import { useConfig } from '@/lib/auth/get-config';
import { useOptionalUser } from '@/lib/auth/get-user';
import { takeIntendedUrl } from '@/lib/storage';
import { LoginCard } from '@/features/auth/components/LoginCard';
import { RegisterCard } from '@/features/auth/components/RegisterCard';

/** Location state set by the new-password screen after a successful reset. */
interface LoginLocationState {
  notice?: string;
}

function noticeFrom(state: unknown): string | undefined {
  if (typeof state === 'object' && state !== null && 'notice' in state) {
    const { notice } = state as LoginLocationState;
    return typeof notice === 'string' ? notice : undefined;
  }
  return undefined;
}

export function LoginRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const user = useOptionalUser();
  const config = useConfig();
  const notice = noticeFrom(location.state);

  // Signed in (here, by registering, or already): go to the URL asked for before login, or "/".
  const left = useRef(false);
  useEffect(() => {
    if (user.data && !left.current) {
      left.current = true;
      void navigate(takeIntendedUrl(), { replace: true });
    }
  }, [user.data, navigate]);

  return (
    <div className="auth-page">
      <h1 className="auth-title">{t('auth.welcome')}</h1>
      {notice && (
        <Alert kind="success" testId="login-notice">
          {notice}
        </Alert>
      )}
      {config.data?.demo && (
        <Alert kind="info" testId="demo-credentials">
          {t('auth.demo', { email: config.data.demo.email, password: config.data.demo.password })}
        </Alert>
      )}
      <div className="auth-cards">
        <LoginCard />
        <RegisterCard />
      </div>
    </div>
  );
}
