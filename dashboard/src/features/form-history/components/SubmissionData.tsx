import DOMPurify from 'dompurify';

/**
 * A submission's `data`, shown as HTML (spec §2). The edge sanitises it before storing and the
 * API cleans it again, but it is still text a site visitor wrote, rendered on the dashboard's own
 * origin where the owner's session lives: DOMPurify cleans it once more in the browser, with the
 * browser's own parser, so a gap in either server-side cleaner cannot become script here.
 * In the table it is a preview that scrolls; `full` (the opened message) shows all of it, wrapped.
 */
export function SubmissionData({ html, full = false }: { html: string; full?: boolean }) {
  const clean = DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input'],
  });
  return (
    <div
      className={full ? 'submission-data is-full' : 'submission-data'}
      data-testid={full ? 'form-entry-data' : 'entry-data'}
      dangerouslySetInnerHTML={{ __html: clean }}
    />
  );
}
