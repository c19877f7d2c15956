import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { PageLoader } from '@/components/PageLoader';
import { loadFullCatalogue } from '@/lib/i18n';
import { NotFound } from '@/components/NotFound';
import { Layout } from './Layout';
import { paths } from './paths';
import { RequireAdmin } from './RequireAdmin';
import { RequireAuth } from './RequireAuth';
import { RequireBusinessAdmin } from './RequireBusinessAdmin';
import { RouteError } from './RouteError';

/**
 * A screen from its own chunk, fetched when its route is first matched (react-router's `lazy`;
 * the route's hydrateFallbackElement, the page loader, shows meanwhile), with the rest of the
 * language's catalogue (lib/i18n.ts) fetched beside it. Every screen is one: the entry holds
 * only the frame (layout, guards, error screens) that every page needs, so the sign-in page
 * downloads neither the project screens nor the editor (canvas, drag and drop, rich text, code
 * editors) nor the dialogs, and the project list not the editor. Vite preloads a lazy chunk's
 * own imports when the route asks for it, never from index.html (scripts/check-bundle-size.mjs
 * checks the budgets that follow).
 */
function screen<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return async () => {
    const [module] = await Promise.all([load(), loadFullCatalogue()]);
    return { Component: pick(module) };
  };
}

/** A sign-in screen: it needs only the catalogue's core, loaded before the first render. */
function signInScreen<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return async () => ({ Component: pick(await load()) });
}

const clientAdmin = () => import('@/features/collections/routes/ClientAdminRoutes');
const records = () => import('@/features/collections/routes/RecordsRoute');
const tableEdit = () => import('@/features/collections/routes/TableEditRoute');
const redirects = () => import('@/features/redirects/routes/RedirectsRoute');

/**
 * Gives every route (leaves, layouts and guards alike) an error boundary and a hydration fallback,
 * unless it has its own: an error in one screen shows the translated RouteError in that screen's
 * place (the header and the layouts above stay), and a lazy screen's first load shows the page
 * loader where it will be, so react-router has no "No HydrateFallback element" warning to print.
 */
export function withRouteDefaults(
  routes: RouteObject[],
  defaults: Pick<RouteObject, 'errorElement' | 'hydrateFallbackElement'>,
): RouteObject[] {
  return routes.map((route): RouteObject => {
    const errorElement = route.errorElement ?? defaults.errorElement;
    const hydrateFallbackElement = route.hydrateFallbackElement ?? defaults.hydrateFallbackElement;
    if (route.index) return { ...route, errorElement, hydrateFallbackElement };
    const children = route.children && withRouteDefaults(route.children, defaults);
    return { ...route, errorElement, hydrateFallbackElement, children };
  });
}

/**
 * Public screens: login, forgot, new-password, confirm-form-email, confirm-email, and the client admin panel (/admin, authorised by
 * the project token, outside the account's layout). Everything else sits behind RequireAuth.
 */
export const routes: RouteObject[] = [
  {
    path: paths.clientAdmin.pattern,
    lazy: screen(clientAdmin, (m) => m.ClientAdminLayout),
    // Errors in the client panel lead back to the panel's own start, not the owner's dashboard.
    errorElement: <RouteError home="client" />,
    children: withRouteDefaults(
      [
        { index: true, lazy: screen(clientAdmin, (m) => m.ClientHomeRoute) },
        { path: paths.clientTableData.pattern, lazy: screen(clientAdmin, (m) => m.ClientRecordsRoute) },
        { path: paths.clientRecordNew.pattern, lazy: screen(clientAdmin, (m) => m.ClientRecordFormRoute) },
        { path: paths.clientRecordEdit.pattern, lazy: screen(clientAdmin, (m) => m.ClientRecordFormRoute) },
      ],
      { errorElement: <RouteError home="client" />, hydrateFallbackElement: <PageLoader /> },
    ),
  },
  {
    element: <Layout />,
    children: [
      {
        path: paths.login.pattern,
        lazy: signInScreen(
          () => import('@/features/auth/routes/LoginRoute'),
          (m) => m.LoginRoute,
        ),
      },
      {
        path: paths.forgot.pattern,
        lazy: signInScreen(
          () => import('@/features/auth/routes/ForgotRoute'),
          (m) => m.ForgotRoute,
        ),
      },
      {
        path: paths.newPassword.pattern,
        lazy: signInScreen(
          () => import('@/features/auth/routes/NewPasswordRoute'),
          (m) => m.NewPasswordRoute,
        ),
      },
      {
        path: paths.confirmFormEmail.pattern,
        lazy: screen(
          () => import('@/features/form-history/routes/ConfirmFormEmailRoute'),
          (m) => m.ConfirmFormEmailRoute,
        ),
      },
      {
        path: paths.confirmEmail.pattern,
        lazy: screen(
          () => import('@/features/account/routes/ConfirmEmailRoute'),
          (m) => m.ConfirmEmailRoute,
        ),
      },
      {
        path: paths.logout.pattern,
        lazy: signInScreen(
          () => import('@/features/auth/routes/LogoutRoute'),
          (m) => m.LogoutRoute,
        ),
      },
      {
        element: <RequireAuth />,
        children: [
          {
            path: paths.home.pattern,
            lazy: screen(
              () => import('@/features/projects/routes/DashboardRoute'),
              (m) => m.DashboardRoute,
            ),
          },
          // Phones once had a "use a computer" screen here; they now use the dashboard itself.
          { path: paths.mobile.pattern, element: <Navigate to={paths.home.build()} replace /> },
          {
            path: paths.user.pattern,
            // The own-account screen (plans, history, card): its own chunk, fetched when first visited.
            lazy: screen(
              () => import('@/features/account/routes/AccountRoute'),
              (m) => m.AccountRoute,
            ),
          },
          {
            path: paths.projectNew.pattern,
            lazy: screen(
              () => import('@/features/projects/routes/NewProjectRoute'),
              (m) => m.NewProjectRoute,
            ),
          },
          {
            path: paths.project.pattern,
            lazy: screen(
              () => import('./ProjectOverviewPage'),
              (m) => m.ProjectOverviewPage,
            ),
          },
          {
            path: paths.projectEdit.pattern,
            lazy: screen(
              () => import('@/features/projects/routes/ProjectEditRoute'),
              (m) => m.ProjectEditRoute,
            ),
          },
          {
            path: paths.projectIdentity.pattern,
            lazy: screen(
              () => import('./IdentityPage'),
              (m) => m.IdentityPage,
            ),
          },
          {
            path: paths.projectTables.pattern,
            lazy: screen(
              () => import('@/features/collections/routes/TablesRoute'),
              (m) => m.TablesRoute,
            ),
          },
          {
            path: paths.projectTableNew.pattern,
            lazy: async () => {
              const [{ TableEditRoute }] = await Promise.all([tableEdit(), loadFullCatalogue()]);
              return { element: <TableEditRoute isNew /> };
            },
          },
          {
            path: paths.projectTable.pattern,
            lazy: async () => {
              const [{ TableEditRoute }] = await Promise.all([tableEdit(), loadFullCatalogue()]);
              return { element: <TableEditRoute isNew={false} /> };
            },
          },
          {
            path: paths.projectTableFields.pattern,
            lazy: screen(
              () => import('@/features/collections/routes/FieldsRoute'),
              (m) => m.FieldsRoute,
            ),
          },
          { path: paths.projectTableData.pattern, lazy: screen(records, (m) => m.RecordsRoute) },
          { path: paths.projectRecordNew.pattern, lazy: screen(records, (m) => m.RecordFormRoute) },
          { path: paths.projectRecordEdit.pattern, lazy: screen(records, (m) => m.RecordFormRoute) },
          {
            path: paths.projectRedirects.pattern,
            lazy: screen(redirects, (m) => m.RedirectsRoute),
            children: [
              { path: paths.projectRedirectNew.pattern, lazy: screen(redirects, (m) => m.RedirectNewRoute) },
              {
                path: paths.projectRedirectEdit.pattern,
                lazy: screen(redirects, (m) => m.RedirectEditRoute),
              },
            ],
          },
          {
            path: paths.projectFormHistory.pattern,
            lazy: screen(
              () => import('@/features/form-history/routes/FormHistoryRoute'),
              (m) => m.FormHistoryRoute,
            ),
          },
          {
            path: paths.projectAnalytics.pattern,
            // The chart library (uPlot) comes with this chunk only.
            lazy: screen(
              () => import('./AnalyticsPage'),
              (m) => m.AnalyticsPage,
            ),
          },
          {
            path: paths.page.pattern,
            // The editor is the heaviest screen (canvas, drag and drop, rich text, code editors):
            // its own chunk, fetched when the route is first visited.
            lazy: screen(
              () => import('./PageEditorPage'),
              (m) => m.PageEditorPage,
            ),
          },
          {
            // The full preview of a published template: every owner choosing one opens it.
            path: paths.template.pattern,
            lazy: screen(
              () => import('@/features/template-admin/routes/TemplatePreviewRoute'),
              (m) => m.TemplatePreviewRoute,
            ),
          },
          {
            element: <RequireAdmin />,
            children: [
              {
                path: paths.erpBlocks.pattern,
                // Only administrators open it: its own chunk, kept out of everyone's first load.
                lazy: screen(
                  () => import('@/features/block-admin/routes/BlockAdminRoute'),
                  (m) => m.BlockAdminRoute,
                ),
              },
              {
                path: paths.erpTemplates.pattern,
                lazy: screen(
                  () => import('@/features/template-admin/routes/TemplateAdminRoute'),
                  (m) => m.TemplateAdminRoute,
                ),
              },
              {
                path: paths.erpUsers.pattern,
                lazy: screen(
                  () => import('@/features/user-admin/routes/UserAdminRoute'),
                  (m) => m.UserAdminRoute,
                ),
              },
              {
                path: paths.erpEdges.pattern,
                // The chart and the polling come with this chunk only.
                lazy: screen(
                  () => import('@/features/edge-ops/routes/EdgeOpsRoute'),
                  (m) => m.EdgeOpsRoute,
                ),
              },
              {
                path: paths.erpPhotos.pattern,
                lazy: screen(
                  () => import('@/features/photos/routes/PhotosRoute'),
                  (m) => m.PhotosRoute,
                ),
              },
            ],
          },
          {
            element: <RequireBusinessAdmin />,
            children: [
              {
                path: paths.users.pattern,
                // Only business admins open them: their own chunks.
                lazy: screen(
                  () => import('@/features/business-users/routes/BusinessUsersRoute'),
                  (m) => m.BusinessUsersRoute,
                ),
              },
              {
                path: paths.userNew.pattern,
                lazy: screen(
                  () => import('@/features/business-users/routes/BusinessUserFormRoute'),
                  (m) => m.BusinessUserNewRoute,
                ),
              },
              {
                path: paths.userEdit.pattern,
                lazy: screen(
                  () => import('@/features/business-users/routes/BusinessUserFormRoute'),
                  (m) => m.BusinessUserEditRoute,
                ),
              },
              {
                path: paths.businessBlocks.pattern,
                lazy: screen(
                  () => import('@/features/business-library/routes/BusinessLibraryRoute'),
                  (m) => m.BusinessLibraryRoute,
                ),
              },
            ],
          },
          { path: '*', element: <NotFound /> },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(
  withRouteDefaults(routes, { errorElement: <RouteError />, hydrateFallbackElement: <PageLoader /> }),
);
