import { createBrowserRouter } from 'react-router';
import { ForgotRoute } from '../features/auth/routes/ForgotRoute';
import { LoginRoute } from '../features/auth/routes/LoginRoute';
import { LogoutRoute } from '../features/auth/routes/LogoutRoute';
import { NewPasswordRoute } from '../features/auth/routes/NewPasswordRoute';
import { MobileRoute } from '../features/mobile/routes/MobileRoute';
import { PageSettingsRoute } from '../features/pages/routes/PageSettingsRoute';
import { DashboardRoute } from '../features/projects/routes/DashboardRoute';
import { NewProjectRoute } from '../features/projects/routes/NewProjectRoute';
import { ProjectEditRoute } from '../features/projects/routes/ProjectEditRoute';
import { ProjectOverviewRoute } from '../features/projects/routes/ProjectOverviewRoute';
import { Layout } from './Layout';
import { NotFoundRoute } from './NotFoundRoute';
import { paths } from './paths';
import { RequireAuth } from './RequireAuth';

/**
 * Public screens: login, forgot, new-password. Everything else sits behind RequireAuth.
 * Collections, redirects, form history and account screens come in later tasks; their
 * links already point at the paths in paths.ts and fall through to "not found" for now.
 */
export const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { path: paths.login, element: <LoginRoute /> },
      { path: paths.forgot, element: <ForgotRoute /> },
      { path: paths.newPassword, element: <NewPasswordRoute /> },
      { path: paths.logout, element: <LogoutRoute /> },
      {
        element: <RequireAuth />,
        children: [
          { path: paths.home, element: <DashboardRoute /> },
          { path: paths.mobile, element: <MobileRoute /> },
          { path: paths.projectNew, element: <NewProjectRoute /> },
          { path: paths.project, element: <ProjectOverviewRoute /> },
          { path: paths.projectEdit, element: <ProjectEditRoute /> },
          { path: paths.page, element: <PageSettingsRoute /> },
          { path: '*', element: <NotFoundRoute /> },
        ],
      },
    ],
  },
]);
