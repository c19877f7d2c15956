import { createBrowserRouter } from 'react-router';
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
import { MobileRoute } from '@/features/mobile/routes/MobileRoute';
import { ConfirmFormEmailRoute } from '@/features/form-history/routes/ConfirmFormEmailRoute';
import { FormHistoryRoute } from '@/features/form-history/routes/FormHistoryRoute';
import { DashboardRoute } from '@/features/projects/routes/DashboardRoute';
import { NewProjectRoute } from '@/features/projects/routes/NewProjectRoute';
import { ProjectEditRoute } from '@/features/projects/routes/ProjectEditRoute';
import {
  RedirectEditRoute,
  RedirectNewRoute,
  RedirectsRoute,
} from '@/features/redirects/routes/RedirectsRoute';
import { Layout } from './Layout';
import { NotFound } from '@/components/NotFound';
import { ProjectOverviewPage } from './ProjectOverviewPage';
import { paths } from './paths';
import { RequireAdmin } from './RequireAdmin';
import { RequireAuth } from './RequireAuth';
import { RequireBusinessAdmin } from './RequireBusinessAdmin';

/**
 * Public screens: login, forgot, new-password, confirm-form-email, and the client admin panel (/admin, authorised by
 * the project token, outside the account's layout). Everything else sits behind RequireAuth.
 * Account screens come in later tasks; their links already point at the paths in paths.ts and
 * fall through to "not found" for now.
 */
export const router = createBrowserRouter([
  {
    path: paths.clientAdmin,
    element: <ClientAdminLayout />,
    children: [
      { index: true, element: <ClientHomeRoute /> },
      { path: paths.clientTableData, element: <ClientRecordsRoute /> },
      { path: paths.clientRecordNew, element: <ClientRecordFormRoute /> },
      { path: paths.clientRecordEdit, element: <ClientRecordFormRoute /> },
    ],
  },
  {
    element: <Layout />,
    children: [
      { path: paths.login, element: <LoginRoute /> },
      { path: paths.forgot, element: <ForgotRoute /> },
      { path: paths.newPassword, element: <NewPasswordRoute /> },
      { path: paths.confirmFormEmail, element: <ConfirmFormEmailRoute /> },
      { path: paths.logout, element: <LogoutRoute /> },
      {
        element: <RequireAuth />,
        children: [
          { path: paths.home, element: <DashboardRoute /> },
          { path: paths.mobile, element: <MobileRoute /> },
          {
            path: paths.user,
            // The own-account screen (plans, history, card): its own chunk, fetched when first visited.
            lazy: async () => ({
              Component: (await import('@/features/account/routes/AccountRoute')).AccountRoute,
            }),
          },
          { path: paths.projectNew, element: <NewProjectRoute /> },
          { path: paths.project, element: <ProjectOverviewPage /> },
          { path: paths.projectEdit, element: <ProjectEditRoute /> },
          { path: paths.projectTables, element: <TablesRoute /> },
          { path: paths.projectTableNew, element: <TableEditRoute isNew /> },
          { path: paths.projectTable, element: <TableEditRoute isNew={false} /> },
          { path: paths.projectTableFields, element: <FieldsRoute /> },
          { path: paths.projectTableData, element: <RecordsRoute /> },
          { path: paths.projectRecordNew, element: <RecordFormRoute /> },
          { path: paths.projectRecordEdit, element: <RecordFormRoute /> },
          {
            path: paths.projectRedirects,
            element: <RedirectsRoute />,
            children: [
              { path: paths.projectRedirectNew, element: <RedirectNewRoute /> },
              { path: paths.projectRedirectEdit, element: <RedirectEditRoute /> },
            ],
          },
          { path: paths.projectFormHistory, element: <FormHistoryRoute /> },
          {
            path: paths.page,
            // The editor is the heaviest screen (canvas, drag and drop, rich text, code editors):
            // its own chunk, fetched when the route is first visited.
            lazy: async () => ({ Component: (await import('./PageEditorPage')).PageEditorPage }),
          },
          {
            element: <RequireAdmin />,
            children: [
              {
                path: paths.erpBlocks,
                // Only administrators open it: its own chunk, kept out of everyone's first load.
                lazy: async () => ({
                  Component: (await import('@/features/block-admin/routes/BlockAdminRoute')).BlockAdminRoute,
                }),
              },
              {
                path: paths.erpTemplates,
                lazy: async () => ({
                  Component: (await import('@/features/template-admin/routes/TemplateAdminRoute'))
                    .TemplateAdminRoute,
                }),
              },
              {
                path: paths.template,
                lazy: async () => ({
                  Component: (await import('@/features/template-admin/routes/TemplatePreviewRoute'))
                    .TemplatePreviewRoute,
                }),
              },
              {
                path: paths.erpUsers,
                lazy: async () => ({
                  Component: (await import('@/features/user-admin/routes/UserAdminRoute')).UserAdminRoute,
                }),
              },
              {
                path: paths.erpEdges,
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
                path: paths.users,
                // Only business admins open them: their own chunks.
                lazy: async () => ({
                  Component: (await import('@/features/business-users/routes/BusinessUsersRoute'))
                    .BusinessUsersRoute,
                }),
              },
              {
                path: paths.userNew,
                lazy: async () => ({
                  Component: (await import('@/features/business-users/routes/BusinessUserFormRoute'))
                    .BusinessUserNewRoute,
                }),
              },
              {
                path: paths.userEdit,
                lazy: async () => ({
                  Component: (await import('@/features/business-users/routes/BusinessUserFormRoute'))
                    .BusinessUserEditRoute,
                }),
              },
              {
                path: paths.businessBlocks,
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
]);
