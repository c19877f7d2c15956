import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { PublishResult } from '@/features/publishing/types';
import { applyPublished } from './cache';

export interface PublishProjectInput {
  projectId: number;
  token: string;
}

/** Builds a new deploy and makes it live; answers with the deploy and the site's address. */
export function publishProject({ projectId, token }: PublishProjectInput): Promise<PublishResult> {
  return apiJson<PublishResult>(`/api/publish_v2/${projectId}`, {
    method: 'POST',
    body: { project_id: projectId, token },
  });
}

export function usePublishProject() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: publishProject,
    onSuccess: (_, { projectId }) => applyPublished(client, projectId, true),
    // A failed build is recorded in the deploy history too, with its reason.
    onError: (_, { projectId }) => client.invalidateQueries({ queryKey: queryKeys.deploys(projectId) }),
  });
}
