/**
 * A business's own block library (issue 20): its administrators write it, its members see it
 * in the editor beside My Blocks, and nobody outside the business reads it. Shared by the
 * editor (pages) and the business admin's screen (business-library), which don't import each
 * other.
 */

/** A block of the user's business's library, as `GET /api/business/blocks` lists it. */
export interface BusinessBlock {
  id: number;
  name: string;
  /** Thumbnail: an uploaded file (`/files/…`) or an http(s) address; empty for none. */
  image: string;
  /** Comma-separated search words. */
  keywords: string;
  /** With its x-vars attribute. */
  template: string;
  css: string;
  js: string;
  order: number;
  updated_at: string;
}

/** `POST /api/business/blocks[/{id}]`: creating needs name and template; replacing keeps what is left out. */
export interface SaveBusinessBlockInput {
  name?: string;
  image?: string;
  keywords?: string;
  template?: string;
  css?: string;
  js?: string;
  order?: number;
}
