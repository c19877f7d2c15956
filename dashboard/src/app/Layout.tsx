import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet } from 'react-router';
import { GlobalSpinner } from '@/components/GlobalSpinner';
import { LanguageSwitch } from '@/components/LanguageSwitch';
import { useToasterWanted } from '@/components/toaster-slot';
import { useOptionalUser } from '@/lib/auth/get-user';
import { applyLanguage, storedLanguage } from '@/lib/i18n';
import { useDocumentTitle } from './document-title';
import { paths } from './paths';

// Chunks of their own, kept off the sign-in page's critical path: the toaster (sonner) mounts
// once a screen that raises toasts has loaded (toaster-slot.ts), the 'login as' banner only
// while an administrator uses another account.
const Toaster = lazy(async () => ({ default: (await import('@/components/toast')).Toaster }));
const ImpersonationBanner = lazy(async () => ({
  default: (await import('@/features/user-admin/components/ImpersonationBanner')).ImpersonationBanner,
}));

function Header() {
  const { t } = useTranslation();
  const { data: user } = useOptionalUser();
  return (
    <header className="app-header">
      <Link to={paths.home.build()} className="brand">
        Vitrine
      </Link>
      <nav className="app-nav" aria-label={t('landmarks.mainNav')}>
        {user && (
          <>
            {/* Every signed-in user reaches their own account (spec 2 §2: /user, signed in). */}
            <NavLink to={paths.user.build()} data-testid="header-email">
              {user.email}
            </NavLink>
            {user.is_business_admin && (
              <>
                <NavLink to={paths.users.build()} data-testid="header-users">
                  {t('header.users')}
                </NavLink>
                <NavLink to={paths.businessBlocks.build()} data-testid="header-business-blocks">
                  {t('header.businessBlocks')}
                </NavLink>
              </>
            )}
            {user.is_admin && (
              <>
                <NavLink to={paths.erpBlocks.build()} data-testid="header-erp-blocks">
                  {t('header.blocks')}
                </NavLink>
                <NavLink to={paths.erpTemplates.build()} data-testid="header-erp-templates">
                  {t('header.templates')}
                </NavLink>
                <NavLink to={paths.erpUsers.build()} data-testid="header-erp-users">
                  {t('header.erpUsers')}
                </NavLink>
                <NavLink to={paths.erpEdges.build()} data-testid="header-erp-edges">
                  {t('header.edges')}
                </NavLink>
              </>
            )}
            <Link to={paths.logout.build()} data-testid="logout-link">
              {t('header.logout')}
            </Link>
          </>
        )}
        <LanguageSwitch testId="language-switch" />
      </nav>
    </header>
  );
}

/** Page frame for every screen: header, the 'login as' banner, toasts and the global spinner. */
export function Layout() {
  const { data: user } = useOptionalUser();
  const toaster = useToasterWanted();
  useDocumentTitle();
  // The account's language applies unless this browser chose one explicitly.
  useEffect(() => {
    if (user && storedLanguage() === null) applyLanguage(user.language);
  }, [user]);
  return (
    <div className="app">
      <GlobalSpinner />
      <Header />
      <main className="app-main">
        {typeof user?.impersonator_id === 'number' && (
          <Suspense fallback={null}>
            <ImpersonationBanner />
          </Suspense>
        )}
        <Outlet />
      </main>
      {toaster && (
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      )}
    </div>
  );
}
