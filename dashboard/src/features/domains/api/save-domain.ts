import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { ProjectDetail } from '@/lib/types';

export interface SaveDomainInput {
  projectId: number;
  /** The host as the owner entered it; the server cleans it the same way (`pasted_host`). */
  domain: string;
}

/**
 * Saves the domain with the project (POST /api/projects/{id} `{domain}`) as soon as the owner
 * enters it: the server keeps it as pending (or as the verified domain it already is) and
 * checks its DNS again by itself, saying when in `domain_check.next_check_at`.
 */
export function saveDomain({ projectId, domain }: SaveDomainInput): Promise<ProjectDetail> {
  return apiJson<ProjectDetail>(`/api/projects/${projectId}`, { method: 'POST', body: { domain } });
}

export function useSaveDomain() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveDomain,
    onSuccess: (_project, { projectId }) =>
      Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.project(projectId) }),
        client.invalidateQueries({ queryKey: queryKeys.projects, exact: true }),
      ]),
  });
}
