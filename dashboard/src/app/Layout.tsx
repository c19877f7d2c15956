import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet } from 'react-router';
import { GlobalSpinner } from '@/components/GlobalSpinner';
import { LanguageSwitch } from '@/components/LanguageSwitch';
import { Toaster } from '@/components/toast';
import { ImpersonationBanner } from '@/features/user-admin/components/ImpersonationBanner';
import { useOptionalUser } from '@/lib/auth/get-user';
import { applyLanguage, storedLanguage } from '@/lib/i18n';
import { useDocumentTitle } from './document-title';
import { paths } from './paths';

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
        <ImpersonationBanner />
        <Outlet />
      </main>
      <Toaster />
    </div>
  );
}
