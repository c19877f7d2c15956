import { Navigate, Outlet, useLocation } from 'react-router';
import { PageLoader } from '@/components/PageLoader';
import { useUser } from '@/lib/auth/get-user';
import { rememberIntendedUrl } from '@/lib/storage';
import { paths } from './paths';

/** Guards restricted routes: signed-out visitors go to /login, keeping the URL they asked for. */
export function RequireAuth() {
  const location = useLocation();
  const user = useUser();
  if (user.isPending) return <PageLoader />;
  if (!user.data) {
    rememberIntendedUrl(location.pathname + location.search + location.hash);
    return <Navigate to={paths.login.build()} replace />;
  }
  return <Outlet />;
}
