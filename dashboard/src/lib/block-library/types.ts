/**
 * The global block library, written by platform administrators: its categories and their blocks, as
 * GET /api/blocks sends them. The administrator's screen edits them; the page editor inserts them.
 */

export interface LibraryBlock {
  id: number;
  uid: string;
  name: string;
  category_id: number;
  image: string | null;
  keywords: string;
  template: string;
  css: string;
  js: string;
  order: number;
}

export interface LibraryCategory {
  id: number;
  key: string | null;
  name: string;
  /** SVG text. */
  icon: string;
  order: number;
  blocks: LibraryBlock[];
}
