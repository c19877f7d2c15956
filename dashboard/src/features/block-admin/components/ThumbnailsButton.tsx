import { useTranslation } from 'react-i18next';
import { toastFailure } from '@/components/admin-toasts';
import { useRegenerateThumbnails, useThumbnailProgress } from '@/features/block-admin/api/thumbnails';
import { ActionButton } from '@/components/ActionButton';
import { LiveStatus } from '@/components/LiveStatus';

/**
 * "Regenerate all thumbnails" with its progress: every block and template pictured again by
 * the server in the background ("3 of 40"), then what came of it. A pass the server runs on its
 * own (after start-up, after a block was saved) shows here too.
 */
export function ThumbnailsButton() {
  const { t } = useTranslation();
  const progress = useThumbnailProgress();
  const regenerate = useRegenerateThumbnails();
  const p = progress.data;
  const running = p?.running ?? false;
  let status: string | null = null;
  if (running && p) status = t('blockAdmin.thumbnails.running', { done: p.done, total: p.total });
  else if (p && p.total > 0)
    status = t('blockAdmin.thumbnails.finished', { done: p.done - p.failed, failed: p.failed });

  return (
    <>
      <ActionButton
        disabled={running || regenerate.isPending}
        onClick={() => regenerate.mutate(undefined, { onError: (error) => toastFailure(t, error) })}
        testId="thumbnails-regenerate"
      >
        {t('blockAdmin.thumbnails.regenerate')}
      </ActionButton>
      {status && (
        <LiveStatus
          as="span"
          className="muted small"
          testId="thumbnails-progress"
          data={{ 'data-running': running }}
          title={p?.last_error ?? undefined}
        >
          {running && <span className="spinner" aria-hidden="true" />} {status}
        </LiveStatus>
      )}
    </>
  );
}
