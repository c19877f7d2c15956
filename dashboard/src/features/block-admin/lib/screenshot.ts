/** Screenshot options of the admin blocks screen and the thumbnail URL they make. */
import type { ScreenshotOptions } from '@/features/block-admin/types';

export const DEFAULT_SCREENSHOT: ScreenshotOptions = { width: 1280, height: 600, trim: true };

/** Reads "1280,600" (spaces and an "x" separator allowed); null when it is not two positive integers. */
export function parseScreenshotSize(text: string): { width: number; height: number } | null {
  const match = /^\s*(\d{1,5})\s*[,x×]\s*(\d{1,5})\s*$/i.exec(text);
  if (!match) return null;
  const width = Number(match[1]);
  const height = Number(match[2]);
  if (width < 1 || height < 1) return null;
  return { width, height };
}

/** GET /api/block-screenshot/{id}?size=w,h[&trim=1]. */
export function screenshotUrl(id: number, { width, height, trim }: ScreenshotOptions): string {
  return `/api/block-screenshot/${id}?size=${width},${height}${trim ? '&trim=1' : ''}`;
}
