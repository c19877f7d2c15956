import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { isMobileDevice } from '@/lib/device';
import { paths } from '@/app/paths';

/** The editor needs a desktop: phones get a notice, desktops go back to the dashboard. */
export function MobileRoute() {
  const { t } = useTranslation();
  if (!isMobileDevice()) return <Navigate to={paths.home.build()} replace />;
  return (
    <div className="card notice" data-testid="mobile-notice">
      <h1>{t('mobile.title')}</h1>
      <p>{t('mobile.body')}</p>
    </div>
  );
}
