import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { PageLoader } from '@/components/PageLoader';
import { useLogout } from '@/features/auth/api/logout';

/** /logout: ends the session, then shows the login screen. */
export function LogoutRoute() {
  const navigate = useNavigate();
  const logout = useLogout();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    logout.mutate(undefined, { onSettled: () => navigate('/login', { replace: true }) });
  }, [logout, navigate]);

  return <PageLoader />;
}
