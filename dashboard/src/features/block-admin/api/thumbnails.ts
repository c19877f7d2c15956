import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { ThumbnailProgress } from '@/lib/types';

export type { ThumbnailProgress };

/** How often the screen asks while a pass runs. */
export const THUMBNAIL_POLL_MS = 1_000;

export function getThumbnailProgress(): Promise<ThumbnailProgress> {
  return apiJson<ThumbnailProgress>('/erp/thumbnails', { quiet: true });
}

/**
 * The progress, asked again every second while a pass runs (one started here, after start-up
 * or after a block was saved); once it ends the library is read again, with its new pictures.
 */
export function useThumbnailProgress() {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: queryKeys.erpThumbnails,
    queryFn: getThumbnailProgress,
    refetchInterval: (q) => (q.state.data?.running ? THUMBNAIL_POLL_MS : false),
  });
  const running = query.data?.running ?? false;
  const wasRunning = useRef(false);
  useEffect(() => {
    if (wasRunning.current && !running) void client.invalidateQueries({ queryKey: queryKeys.blocks });
    wasRunning.current = running;
  }, [running, client]);
  return query;
}

/** "Regenerate all thumbnails" (POST /erp/thumbnails → 202 with the progress). */
export function useRegenerateThumbnails() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<ThumbnailProgress>('/erp/thumbnails', { method: 'POST' }),
    onSuccess: (progress) => client.setQueryData(queryKeys.erpThumbnails, progress),
  });
}
