import { Navigate } from 'react-router';
import { paths } from '@/app/paths';
import { PageLoader } from '@/components/PageLoader';
import { useNumberParam, useProjectOrLeave } from '@/lib/project-route';
import { FormHistoryList } from '@/features/form-history/components/FormHistoryList';

/** "/project/{project_id}/form-history" (route name form-history). */
export function FormHistoryRoute() {
  const projectId = useNumberParam('projectId');
  const project = useProjectOrLeave(projectId);
  if (!Number.isInteger(projectId)) return <Navigate to={paths.home.build()} replace />;
  if (!project.data) return <PageLoader />;
  return <FormHistoryList project={project.data} />;
}
