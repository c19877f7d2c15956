import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import type { PublishResult } from '@/features/publishing/types';
import { applyPublished } from './cache';

export interface ActivateDeployInput {
  projectId: number;
  deployId: number;
}

/** Rollback: points the site at an earlier ready deploy, instantly (nothing is rebuilt). */
export function activateDeploy({ projectId, deployId }: ActivateDeployInput): Promise<PublishResult> {
  return apiJson<PublishResult>(`/api/projects/${projectId}/deploys/${deployId}/activate`, {
    method: 'POST',
  });
}

export function useActivateDeploy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: activateDeploy,
    onSuccess: (_, { projectId }) => applyPublished(client, projectId, true),
  });
}
