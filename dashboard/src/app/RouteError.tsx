import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ApiError } from '@/lib/api-client';
import { paths } from './paths';
import { ButtonLink } from '@/components/ButtonLink';
import { ActionButton } from '@/components/ActionButton';

/** What went wrong, in words a person can act on: not found, a new version to load, or anything else. */
function errorKind(error: unknown): 'notFound' | 'newVersion' | 'unexpected' {
  const status = isRouteErrorResponse(error) ? error.status : error instanceof ApiError ? error.status : null;
  if (status === 404) return 'notFound';
  // A lazy screen's chunk that is gone after a deploy: reloading fetches the new build.
  if (
    error instanceof TypeError &&
    /dynamically imported module|Importing a module script failed/i.test(error.message)
  ) {
    return 'newVersion';
  }
  return 'unexpected';
}

/**
 * The error boundary of every route (`errorElement`, set on each route by router.tsx): a translated
 * message instead of react-router's English default, and two ways out: try again (reload) and back
 * to the start (the project list, or the client panel's own home under /admin).
 */
export function RouteError({ home = 'dashboard' }: { home?: 'dashboard' | 'client' }) {
  const { t } = useTranslation();
  const kind = errorKind(useRouteError());
  const homePath = home === 'client' ? paths.clientAdmin.build() : paths.home.build();
  return (
    <div className="card notice" role="alert" data-testid="route-error">
      <h1>{t(`routeError.${kind}.title`)}</h1>
      <p>{t(`routeError.${kind}.body`)}</p>
      <div className="button-row">
        <ActionButton onClick={() => window.location.reload()}>{t('routeError.retry')}</ActionButton>
        <ButtonLink to={homePath} variant="primary" testId="route-error-home">
          {home === 'client' ? t('routeError.clientHome') : t('routeError.home')}
        </ButtonLink>
      </div>
    </div>
  );
}
