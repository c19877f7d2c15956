import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { PageLoader } from '@/components/PageLoader';
import { ForgotRoute } from '@/features/auth/routes/ForgotRoute';
import { LoginRoute } from '@/features/auth/routes/LoginRoute';
import { LogoutRoute } from '@/features/auth/routes/LogoutRoute';
import { NewPasswordRoute } from '@/features/auth/routes/NewPasswordRoute';
import {
  ClientAdminLayout,
  ClientHomeRoute,
  ClientRecordFormRoute,
  ClientRecordsRoute,
} from '@/features/collections/routes/ClientAdminRoutes';
import { FieldsRoute } from '@/features/collections/routes/FieldsRoute';
import { RecordFormRoute, RecordsRoute } from '@/features/collections/routes/RecordsRoute';
import { TableEditRoute } from '@/features/collections/routes/TableEditRoute';
import { TablesRoute } from '@/features/collections/routes/TablesRoute';
import { ConfirmFormEmailRoute } from '@/features/form-history/routes/ConfirmFormEmailRoute';
import { ConfirmEmailRoute } from '@/features/account/routes/ConfirmEmailRoute';
import { FormHistoryRoute } from '@/features/form-history/routes/FormHistoryRoute';
import { DashboardRoute } from '@/features/projects/routes/DashboardRoute';
import { NewProjectRoute } from '@/features/projects/routes/NewProjectRoute';
import { ProjectEditRoute } from '@/features/projects/routes/ProjectEditRoute';
import {
  RedirectEditRoute,
  RedirectNewRoute,
  RedirectsRoute,
} from '@/features/redirects/routes/RedirectsRoute';
import { IdentityPage } from './IdentityPage';
import { Layout } from './Layout';
import { NotFound } from '@/components/NotFound';
import { ProjectOverviewPage } from './ProjectOverviewPage';
import { paths } from './paths';
import { RequireAdmin } from './RequireAdmin';
import { RequireAuth } from './RequireAuth';
import { RequireBusinessAdmin } from './RequireBusinessAdmin';
import { RouteError } from './RouteError';

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
    element: <ClientAdminLayout />,
    // Errors in the client panel lead back to the panel's own start, not the owner's dashboard.
    errorElement: <RouteError home="client" />,
    children: withRouteDefaults(
      [
        { index: true, element: <ClientHomeRoute /> },
        { path: paths.clientTableData.pattern, element: <ClientRecordsRoute /> },
        { path: paths.clientRecordNew.pattern, element: <ClientRecordFormRoute /> },
        { path: paths.clientRecordEdit.pattern, element: <ClientRecordFormRoute /> },
      ],
      { errorElement: <RouteError home="client" />, hydrateFallbackElement: <PageLoader /> },
    ),
  },
  {
    element: <Layout />,
    children: [
      { path: paths.login.pattern, element: <LoginRoute /> },
      { path: paths.forgot.pattern, element: <ForgotRoute /> },
      { path: paths.newPassword.pattern, element: <NewPasswordRoute /> },
      { path: paths.confirmFormEmail.pattern, element: <ConfirmFormEmailRoute /> },
      { path: paths.confirmEmail.pattern, element: <ConfirmEmailRoute /> },
      { path: paths.logout.pattern, element: <LogoutRoute /> },
      {
        element: <RequireAuth />,
        children: [
          { path: paths.home.pattern, element: <DashboardRoute /> },
          // Phones once had a "use a computer" screen here; they now use the dashboard itself.
          { path: paths.mobile.pattern, element: <Navigate to={paths.home.build()} replace /> },
          {
            path: paths.user.pattern,
            // The own-account screen (plans, history, card): its own chunk, fetched when first visited.
            lazy: async () => ({
              Component: (await import('@/features/account/routes/AccountRoute')).AccountRoute,
            }),
          },
          { path: paths.projectNew.pattern, element: <NewProjectRoute /> },
          { path: paths.project.pattern, element: <ProjectOverviewPage /> },
          { path: paths.projectEdit.pattern, element: <ProjectEditRoute /> },
          { path: paths.projectIdentity.pattern, element: <IdentityPage /> },
          { path: paths.projectTables.pattern, element: <TablesRoute /> },
          { path: paths.projectTableNew.pattern, element: <TableEditRoute isNew /> },
          { path: paths.projectTable.pattern, element: <TableEditRoute isNew={false} /> },
          { path: paths.projectTableFields.pattern, element: <FieldsRoute /> },
          { path: paths.projectTableData.pattern, element: <RecordsRoute /> },
          { path: paths.projectRecordNew.pattern, element: <RecordFormRoute /> },
          { path: paths.projectRecordEdit.pattern, element: <RecordFormRoute /> },
          {
            path: paths.projectRedirects.pattern,
            element: <RedirectsRoute />,
            children: [
              { path: paths.projectRedirectNew.pattern, element: <RedirectNewRoute /> },
              { path: paths.projectRedirectEdit.pattern, element: <RedirectEditRoute /> },
            ],
          },
          { path: paths.projectFormHistory.pattern, element: <FormHistoryRoute /> },
          {
            path: paths.page.pattern,
            // The editor is the heaviest screen (canvas, drag and drop, rich text, code editors):
            // its own chunk, fetched when the route is first visited.
            lazy: async () => ({ Component: (await import('./PageEditorPage')).PageEditorPage }),
          },
          {
            // The full preview of a published template: every owner choosing one opens it.
            path: paths.template.pattern,
            lazy: async () => ({
              Component: (await import('@/features/template-admin/routes/TemplatePreviewRoute'))
                .TemplatePreviewRoute,
            }),
          },
          {
            element: <RequireAdmin />,
            children: [
              {
                path: paths.erpBlocks.pattern,
                // Only administrators open it: its own chunk, kept out of everyone's first load.
                lazy: async () => ({
                  Component: (await import('@/features/block-admin/routes/BlockAdminRoute')).BlockAdminRoute,
                }),
              },
              {
                path: paths.erpTemplates.pattern,
                lazy: async () => ({
                  Component: (await import('@/features/template-admin/routes/TemplateAdminRoute'))
                    .TemplateAdminRoute,
                }),
              },
              {
                path: paths.erpUsers.pattern,
                lazy: async () => ({
                  Component: (await import('@/features/user-admin/routes/UserAdminRoute')).UserAdminRoute,
                }),
              },
              {
                path: paths.erpEdges.pattern,
                // The chart and the polling come with this chunk only.
                lazy: async () => ({
                  Component: (await import('@/features/edge-ops/routes/EdgeOpsRoute')).EdgeOpsRoute,
                }),
              },
            ],
          },
          {
            element: <RequireBusinessAdmin />,
            children: [
              {
                path: paths.users.pattern,
                // Only business admins open them: their own chunks.
                lazy: async () => ({
                  Component: (await import('@/features/business-users/routes/BusinessUsersRoute'))
                    .BusinessUsersRoute,
                }),
              },
              {
                path: paths.userNew.pattern,
                lazy: async () => ({
                  Component: (await import('@/features/business-users/routes/BusinessUserFormRoute'))
                    .BusinessUserNewRoute,
                }),
              },
              {
                path: paths.userEdit.pattern,
                lazy: async () => ({
                  Component: (await import('@/features/business-users/routes/BusinessUserFormRoute'))
                    .BusinessUserEditRoute,
                }),
              },
              {
                path: paths.businessBlocks.pattern,
                lazy: async () => ({
                  Component: (await import('@/features/business-library/routes/BusinessLibraryRoute'))
                    .BusinessLibraryRoute,
                }),
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
