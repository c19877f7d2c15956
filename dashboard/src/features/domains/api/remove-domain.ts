import { useMutation } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import type { Project } from '@/lib/types';

/** Takes the custom domain off the project (and its verified flags); answers with the project. */
export function removeDomain(projectId: number): Promise<Project> {
  return apiJson<Project>(`/api/remove-domain/${projectId}`, { method: 'POST' });
}

/** No cache update: spec 1 §4 has the page reload after a removal. */
export function useRemoveDomain() {
  return useMutation({ mutationFn: removeDomain });
}
