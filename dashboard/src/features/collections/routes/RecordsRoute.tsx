import { Navigate } from 'react-router';
import { paths } from '@/app/paths';
import { PageLoader } from '@/components/PageLoader';
import { useUser } from '@/lib/auth/get-user';
import { ownerScope } from '@/features/collections/components/record-scope';
import { RecordForm } from '@/features/collections/components/RecordForm';
import { RecordsList } from '@/features/collections/components/RecordsList';
import { useNumberParam, useProjectOrLeave } from '@/features/collections/components/use-project-route';

function useOwnerScope() {
  const projectId = useNumberParam('projectId');
  const project = useProjectOrLeave(projectId);
  const { data: user } = useUser();
  return { projectId, scope: project.data ? ownerScope(project.data, user?.id) : undefined };
}

/** "/project/{project_id}/table/{table_id}/browse" (route name project-table-data). */
export function RecordsRoute() {
  const { projectId, scope } = useOwnerScope();
  const tableId = useNumberParam('tableId');
  if (!Number.isInteger(projectId) || !Number.isInteger(tableId))
    return <Navigate to={paths.home.build()} replace />;
  if (!scope) return <PageLoader />;
  return <RecordsList key={tableId} scope={scope} tableId={tableId} />;
}

/** ".../browse/new" and ".../browse/edit/{post_id}". */
export function RecordFormRoute() {
  const { projectId, scope } = useOwnerScope();
  const tableId = useNumberParam('tableId');
  const postId = useNumberParam('postId');
  if (!Number.isInteger(projectId) || !Number.isInteger(tableId))
    return <Navigate to={paths.home.build()} replace />;
  if (!scope) return <PageLoader />;
  return (
    <RecordForm scope={scope} tableId={tableId} postId={Number.isInteger(postId) ? postId : undefined} />
  );
}
