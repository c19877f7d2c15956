import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiBlob } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { templateScreenshotUrl } from '@/features/template-admin/lib/urls';

/**
 * GET /api/template-screenshot/{id}?size=1280,1280&trim=0 → the PNG, which the server also stores
 * as the template's thumbnail. 503 (with the server's message) when Chromium is not installed.
 */
export function templateScreenshot(id: number): Promise<Blob> {
  return apiBlob(templateScreenshotUrl(id));
}

export function useTemplateScreenshot() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: templateScreenshot,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.templates }),
  });
}
