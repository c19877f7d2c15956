/** The block library as the administrator's screen sees it (GET /api/blocks and the /erp calls). */
import type { LibraryCategory } from '@/lib/block-library/types';

export interface Library {
  categories: LibraryCategory[];
}

/** Body of POST /erp/block/{id?}. */
export interface BlockPayload {
  name: string;
  category_id: number;
  image?: string;
  keywords?: string;
  template: string;
  css?: string;
  js?: string;
  order?: number;
}

/** Body of POST /erp/category/{id?}. */
export interface CategoryPayload {
  name: string;
  icon?: string;
  order?: number;
}

/** Options of the thumbnail call. */
export interface ScreenshotOptions {
  width: number;
  height: number;
  trim: boolean;
}
