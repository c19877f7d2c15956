/** What a change of the live deploy refreshes: the project (state), the list and the history. */
import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import type { Project } from '@/lib/types';

/**
 * Shows the new state at once (no reload, no wait for a refetch), then refetches what the
 * server says. The project key prefixes the deploy history, so that is refetched too.
 */
export function applyPublished(
  client: QueryClient,
  projectId: number,
  isPublished: boolean,
): Promise<unknown> {
  client.setQueryData<Project>(queryKeys.project(projectId), (project) =>
    project ? { ...project, is_published: isPublished } : project,
  );
  return Promise.all([
    client.invalidateQueries({ queryKey: queryKeys.project(projectId) }),
    client.invalidateQueries({ queryKey: queryKeys.projects, exact: true }),
  ]);
}
