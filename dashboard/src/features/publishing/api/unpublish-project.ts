import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import type { UnpublishResult } from '@/features/publishing/types';
import { applyPublished } from './cache';

/** Takes the site offline; its deploys stay in the history. */
export function unpublishProject(projectId: number): Promise<UnpublishResult> {
  return apiJson<UnpublishResult>(`/api/unpublish/${projectId}`, { method: 'POST' });
}

export function useUnpublishProject() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: unpublishProject,
    onSuccess: (_, projectId) => applyPublished(client, projectId, false),
  });
}
