/**
 * The owner's preview of a page (GET, answered with the temporary preview address); on a
 * collection page, with the post to show. Opened in a new window by the editor's Preview.
 */
export function pagePreviewUrl(projectId: number, pageId: number, post?: string | null): string {
  const base = `/api/project/${projectId}/page/${pageId}/preview`;
  return post ? `${base}?post=${encodeURIComponent(post)}` : base;
}
