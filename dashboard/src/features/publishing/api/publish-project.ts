import { useMutation, useQueryClient } from '@tanstack/react-query';
import i18n from 'i18next';
import { ApiError, apiEvents, errorFromBody } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { PublishResult, PublishStep } from '@/features/publishing/types';
import { applyPublished } from './cache';

export interface PublishProjectInput {
  projectId: number;
  token: string;
  /** Told each step of the build as the server reports it. */
  onStep?: (step: PublishStep) => void;
}

/**
 * Builds a new deploy and makes it live, streaming the build's steps
 * (POST /api/publish_v2/{id}/events); answers with the deploy and the site's address, or throws
 * the error the server reported (with the status the plain JSON call would have had).
 */
export async function publishProject({
  projectId,
  token,
  onStep,
}: PublishProjectInput): Promise<PublishResult> {
  let result: PublishResult | undefined;
  let failure: ApiError | undefined;
  await apiEvents(
    `/api/publish_v2/${projectId}/events`,
    { method: 'POST', body: { project_id: projectId, token } },
    ({ event, data }) => {
      const parsed: unknown = JSON.parse(data);
      if (event === 'step') onStep?.(parsed as PublishStep);
      else if (event === 'result') result = parsed as PublishResult;
      else if (event === 'error') {
        const status = (parsed as { status?: unknown }).status;
        failure = errorFromBody(typeof status === 'number' ? status : 500, parsed) ?? undefined;
      }
    },
  );
  if (failure) throw failure;
  // The connection ended before the build said how it went.
  if (!result) throw new ApiError(0, 'error', i18n.t('publishing.streamEnded'));
  return result;
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
