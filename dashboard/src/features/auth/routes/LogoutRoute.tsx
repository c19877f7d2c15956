import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { PageLoader } from '@/components/PageLoader';
import { useLogout } from '@/features/auth/api/logout';
import { paths } from '@/app/paths';

/** /logout: ends the session, then shows the login screen. */
export function LogoutRoute() {
  const navigate = useNavigate();
  const logout = useLogout();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    logout.mutate(undefined, { onSettled: () => void navigate(paths.login.build(), { replace: true }) });
  }, [logout, navigate]);

  return <PageLoader />;
}
