import { useParams } from 'react-router';

/** Loads the route's project; on failure toasts the server message once and returns to "/" (spec §8). */
export { useProjectOrLeave } from '@/lib/project-route';

/** Reads :projectId; NaN when the segment is not a number. */
export function useProjectId(): number {
  const { projectId } = useParams();
  return Number(projectId);
}
