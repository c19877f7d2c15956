import { useEffect, useRef } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { paths } from '@/app/paths';
import { PageLoader } from '@/components/PageLoader';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { useNumberParam, useProjectOrLeave } from '@/lib/project-route';
import { useRedirect } from '@/features/redirects/api/get-redirect';
import { RedirectForm } from '@/features/redirects/components/RedirectForm';
import { RedirectList } from '@/features/redirects/components/RedirectList';

/** "/project/{project_id}/redirects" (route name redirects); the form routes are its children. */
export function RedirectsRoute() {
  const projectId = useNumberParam('projectId');
  const project = useProjectOrLeave(projectId);
  if (!Number.isInteger(projectId)) return <Navigate to={paths.home.build()} replace />;
  if (!project.data) return <PageLoader />;
  return <RedirectList project={project.data} />;
}

/** Back to the list, on the page, order and search the form was opened from. */
function useBackToList(projectId: number) {
  const navigate = useNavigate();
  const { search } = useLocation();
  return () => void navigate(`${paths.projectRedirects.build({ projectId })}${search}`);
}

/** ".../redirects/new". */
export function RedirectNewRoute() {
  const projectId = useNumberParam('projectId');
  const back = useBackToList(projectId);
  return <RedirectForm projectId={projectId} onDone={back} />;
}

/** ".../redirects/edit/{id}"; a rule that can't be opened toasts why and closes the form. */
export function RedirectEditRoute() {
  const projectId = useNumberParam('projectId');
  const id = useNumberParam('redirectId');
  const redirect = useRedirect(id);
  const back = useBackToList(projectId);
  const failed = redirect.isError || !Number.isInteger(id);
  const left = useRef(false);
  useEffect(() => {
    if (failed && !left.current) {
      left.current = true;
      if (redirect.error) toast.error(errorMessage(redirect.error));
      back();
    }
  }, [failed, redirect.error, back]);
  if (!redirect.data) return null;
  // Keyed by id so switching rules starts the form afresh.
  return <RedirectForm key={redirect.data.id} projectId={projectId} redirect={redirect.data} onDone={back} />;
}
