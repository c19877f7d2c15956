import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/ui/Dialog';
import { useFormat } from '@/lib/format';
import type { FormEntry } from '@/features/form-history/types';
import { SubmissionData } from './SubmissionData';

/**
 * One form message opened in full: when and where it was sent, to whom, its subject and the
 * whole message, wrapped to the screen's width (the table's cell shows a preview that scrolls,
 * and a phone shows only the date and subject).
 */
export function SubmissionDialog({ entry, onClose }: { entry: FormEntry; onClose: () => void }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const rows = [
    ['date', fmt.dateTime(entry.created_at)],
    ['url', entry.url],
    ['submit', entry.submit],
    ['to', entry.to],
    ['subject', entry.subject],
  ] as const;
  return (
    <Dialog title={t('formHistory.message')} onClose={onClose} testId="form-entry-dialog">
      <dl className="submission-details">
        {rows.map(([key, value]) => (
          <div key={key}>
            <dt>{t(`formHistory.${key}`)}</dt>
            <dd data-testid={`form-entry-${key}`}>{value || '—'}</dd>
          </div>
        ))}
      </dl>
      <SubmissionData html={entry.data} full />
    </Dialog>
  );
}
