import { useEffect, useRef } from 'react';
import { useNavigate, useParams } from 'react-router';
import { paths } from '../../../app/paths';
import { toast } from '../../../components/toast-store';
import { errorMessage } from '../../../lib/api-client';
import { useProject } from '../api/get-project';

/** Reads a numeric route param; NaN when absent or not a number. */
export function useNumberParam(name: 'projectId' | 'tableId' | 'postId'): number {
  const params = useParams();
  const raw = params[name];
  return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
}

/** Loads the route's project; on failure toasts the server message once and returns to "/" (spec §8). */
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

/** Toasts a load failure once and goes to `to` (a record or collection that can't be opened). */
export function useLeaveOnError(error: Error | null, to: string) {
  const navigate = useNavigate();
  const reported = useRef(false);
  useEffect(() => {
    if (error && !reported.current) {
      reported.current = true;
      toast.error(errorMessage(error));
      navigate(to, { replace: true });
    }
  }, [error, navigate, to]);
}
