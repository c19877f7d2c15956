/** URLs of a template's preview document and thumbnail. */

/** GET /api/templates/{id}/preview[?page=<slug>]: the page as a sandboxed HTML document (home when absent). */
export function templatePreviewUrl(id: number, slug?: string): string {
  const base = `/api/templates/${id}/preview`;
  return slug === undefined ? base : `${base}?page=${encodeURIComponent(slug)}`;
}

/** GET /api/template-screenshot/{id}: a 1280×1280 untrimmed capture, which also becomes the template's thumbnail. */
export function templateScreenshotUrl(id: number): string {
  return `/api/template-screenshot/${id}?size=1280,1280&trim=0`;
}
