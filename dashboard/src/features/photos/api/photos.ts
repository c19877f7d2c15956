import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** How far the conversion of older uploads into photos has come (GET /erp/photos). */
export interface PhotoConversion {
  /** A pass runs in the control plane that answered. */
  running: boolean;
  /** Photo uploads converted (or refused) and in all. */
  done: number;
  total: number;
  /** Of `done`, the uploads the photo worker refused. */
  failed: number;
  last_error?: string | null;
}

/** How often the screen asks while a pass runs. */
export const PHOTO_POLL_MS = 1_000;

export function getPhotoConversion(): Promise<PhotoConversion> {
  return apiJson<PhotoConversion>('/erp/photos', { quiet: true });
}

/** The progress, asked again every second while a pass runs. */
export function usePhotoConversion() {
  return useQuery({
    queryKey: queryKeys.erpPhotos,
    queryFn: getPhotoConversion,
    refetchInterval: (q) => (q.state.data?.running ? PHOTO_POLL_MS : false),
  });
}

/** "Convert older uploads" (POST /erp/photos → 202 with the progress). */
export function useConvertPhotos() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<PhotoConversion>('/erp/photos', { method: 'POST' }),
    onSuccess: (progress) => client.setQueryData(queryKeys.erpPhotos, progress),
  });
}
