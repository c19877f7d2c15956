import { useEffect, useRef } from 'react';
import { useNavigate, useParams } from 'react-router';
import { paths } from '../../../app/paths';
import { toast } from '../../../components/toast-store';
import { errorMessage } from '../../../lib/api-client';
import { useProject } from '../api/get-project';

/** Reads :projectId; NaN when the segment is not a number. */
export function useProjectId(): number {
  const { projectId } = useParams();
  return Number(projectId);
}

/**
 * Loads a project; on failure toasts the server message once and returns to "/"
 * (spec §8: project load failure).
 */
export function useProjectOrLeave(id: number) {
  const project = useProject(id);
  const navigate = useNavigate();
  const reported = useRef(false);
  useEffect(() => {
    if (project.isError && !reported.current) {
      reported.current = true;
      toast.error(errorMessage(project.error));
      navigate(paths.home, { replace: true });
    }
  }, [project.isError, project.error, navigate]);
  return project;
}
