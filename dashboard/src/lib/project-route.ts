/**
 * The project a screen under /project/:projectId belongs to: GET /api/projects/{id} (with pages
 * and collections), one cache entry shared by every feature's screens, and the route hooks that
 * load it or leave when it can't be opened.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate, useParams } from 'react-router';
import { paths } from '@/app/paths';
import { toast } from '@/components/toast';
import { apiJson, errorMessage } from './api-client';
import { queryKeys } from './query-keys';
import type { ProjectDetail } from './types';

/** One project with its pages and collections (404 also for other users' projects). */
export function getProject(id: number): Promise<ProjectDetail> {
  return apiJson<ProjectDetail>(`/api/projects/${id}`);
}

export function projectQueryOptions(id: number) {
  return queryOptions({ queryKey: queryKeys.project(id), queryFn: () => getProject(id) });
}

export function useProject(id: number) {
  return useQuery(projectQueryOptions(id));
}

/** Reads a numeric route param; NaN when absent or not a whole number. */
export function useNumberParam(name: string): number {
  const raw = useParams()[name];
  return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
}

/** Loads the project; on failure toasts the server message once and returns to "/" (spec §8). */
export function useProjectOrLeave(id: number) {
  const project = useProject(id);
  const navigate = useNavigate();
  const reported = useRef(false);
  useEffect(() => {
    if (project.isError && !reported.current) {
      reported.current = true;
      toast.error(errorMessage(project.error));
      void navigate(paths.home.build(), { replace: true });
    }
  }, [project.isError, project.error, navigate]);
  return project;
}
