import DOMPurify from 'dompurify';

/**
 * A submission's `data`, shown as HTML (spec §2). The edge sanitises it before storing and the
 * API cleans it again, but it is still text a site visitor wrote, rendered on the dashboard's own
 * origin where the owner's session lives: DOMPurify cleans it once more in the browser, with the
 * browser's own parser, so a gap in either server-side cleaner cannot become script here.
 */
export function SubmissionData({ html }: { html: string }) {
  const clean = DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input'],
  });
  return (
    <div className="submission-data" data-testid="entry-data" dangerouslySetInnerHTML={{ __html: clean }} />
  );
}
