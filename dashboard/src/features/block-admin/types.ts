/** The block library as the administrator's screen sees it (GET /api/blocks and the /erp calls). */
import type { LibraryCategory } from '@/lib/types';

export type { BlockPayload, CategoryPayload } from '@/lib/types';

/** What the administrator's screen reads of GET /api/blocks. */
export interface Library {
  categories: LibraryCategory[];
}

/** Options of the thumbnail call. */
export interface ScreenshotOptions {
  width: number;
  height: number;
  trim: boolean;
}
