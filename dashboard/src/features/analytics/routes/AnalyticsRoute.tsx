import { Navigate } from 'react-router';
import { paths } from '@/app/paths';
import { PageLoader } from '@/components/PageLoader';
import { useNumberParam, useProjectOrLeave } from '@/lib/project-route';
import { AnalyticsScreen, type AnalyticsSlots } from '@/features/analytics/components/AnalyticsScreen';

/** "/project/{project_id}/analytics"; `slots` come from the app (src/app/AnalyticsPage.tsx). */
export function AnalyticsRoute(slots: AnalyticsSlots) {
  const projectId = useNumberParam('projectId');
  const project = useProjectOrLeave(projectId);
  if (!Number.isInteger(projectId)) return <Navigate to={paths.home.build()} replace />;
  if (!project.data) return <PageLoader />;
  return <AnalyticsScreen project={project.data} slots={slots} />;
}
