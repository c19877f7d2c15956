import { useMutation } from '@tanstack/react-query';
import { apiBlob } from '@/lib/api-client';
import { screenshotUrl } from '@/features/block-admin/lib/screenshot';
import type { ScreenshotOptions } from '@/features/block-admin/types';

export interface ScreenshotInput {
  id: number;
  options: ScreenshotOptions;
}

/**
 * GET /api/block-screenshot/{id}?size=w,h&trim=1 → the image. When the renderer is unavailable
 * the server answers 4xx/5xx with a text message, which the ApiError carries.
 */
export function blockScreenshot({ id, options }: ScreenshotInput): Promise<Blob> {
  return apiBlob(screenshotUrl(id, options));
}

export function useBlockScreenshot() {
  return useMutation({ mutationFn: blockScreenshot });
}
