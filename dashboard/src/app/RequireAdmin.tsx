import { Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '@/components/PageLoader';
import { useUser } from '@/lib/auth/get-user';

/**
 * Guards the administrator's screens (/erp/*). Sits inside RequireAuth, so the user is signed in;
 * one who is not an admin sees a forbidden notice (the server answers 403 to their calls anyway).
 */
export function RequireAdmin() {
  const { t } = useTranslation();
  const user = useUser();
  if (user.isPending) return <PageLoader />;
  if (!user.data?.is_admin) {
    return (
      <div className="card notice" data-testid="forbidden">
        <h1>{t('forbidden.title')}</h1>
        <p>{t('forbidden.body')}</p>
      </div>
    );
  }
  return <Outlet />;
}
