/**
 * The browser tab's title follows the screen (WCAG 2.4.2 "Page Titled"): "Registros · Vitrine".
 * One table from route pattern to catalogue key, read by the Layout and the client panel, so no
 * screen has to remember to set it. The most specific patterns come first: `/project/:id/:pageId`
 * (the editor) would otherwise also match `/project/:id/edit`.
 */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { matchPath, useLocation } from 'react-router';
import { paths } from './paths';

const BRAND = 'Vitrine';

const titles: readonly (readonly [route: { readonly pattern: string }, key: string, end?: boolean])[] = [
  [paths.home, 'documentTitle.projects'],
  [paths.login, 'documentTitle.login'],
  [paths.forgot, 'documentTitle.forgot'],
  [paths.newPassword, 'documentTitle.newPassword'],
  [paths.confirmFormEmail, 'documentTitle.confirmFormEmail'],
  [paths.user, 'documentTitle.account'],
  [paths.userNew, 'documentTitle.users'],
  [paths.userEdit, 'documentTitle.users'],
  [paths.users, 'documentTitle.users'],
  [paths.businessBlocks, 'documentTitle.businessBlocks'],
  [paths.erpBlocks, 'documentTitle.erpBlocks'],
  [paths.erpTemplates, 'documentTitle.erpTemplates'],
  [paths.erpUsers, 'documentTitle.erpUsers'],
  [paths.erpEdges, 'documentTitle.erpEdges'],
  [paths.erpPhotos, 'documentTitle.erpPhotos'],
  [paths.template, 'documentTitle.template'],
  [paths.clientRecordNew, 'documentTitle.record'],
  [paths.clientRecordEdit, 'documentTitle.record'],
  [paths.clientTableData, 'documentTitle.records'],
  [paths.clientAdmin, 'documentTitle.clientAdmin'],
  [paths.projectNew, 'documentTitle.newProject'],
  [paths.projectRecordNew, 'documentTitle.record'],
  [paths.projectRecordEdit, 'documentTitle.record'],
  [paths.projectTableData, 'documentTitle.records'],
  [paths.projectTableFields, 'documentTitle.fields'],
  [paths.projectTableNew, 'documentTitle.collection'],
  [paths.projectTable, 'documentTitle.collection'],
  [paths.projectTables, 'documentTitle.collections'],
  [paths.projectRedirects, 'documentTitle.redirects', false],
  [paths.projectFormHistory, 'documentTitle.formHistory'],
  [paths.projectAnalytics, 'documentTitle.analytics'],
  [paths.projectEdit, 'documentTitle.settings'],
  [paths.projectIdentity, 'documentTitle.identity'],
  [paths.project, 'documentTitle.overview'],
  [paths.page, 'documentTitle.editor'],
];

/** The catalogue key of the title for `pathname`; null for a path no screen answers. */
export function titleKey(pathname: string): string | null {
  for (const [{ pattern }, key, end = true] of titles)
    if (matchPath({ path: pattern, end }, pathname)) return key;
  return null;
}

/** Keeps document.title on the current screen's name, in the interface's language. */
export function useDocumentTitle(): void {
  const { pathname } = useLocation();
  const { t, i18n } = useTranslation();
  useEffect(() => {
    const key = titleKey(pathname);
    document.title = key ? `${t(key)} · ${BRAND}` : `${t('documentTitle.notFound')} · ${BRAND}`;
  }, [pathname, t, i18n.language]);
}
