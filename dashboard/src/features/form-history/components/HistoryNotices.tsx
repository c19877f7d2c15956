import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/Alert';
import { useFormat } from '@/lib/format';
import { useFormEmail } from '@/features/form-history/api/get-form-email';
import type { HistoryLimit } from '@/features/form-history/types';
import { FormEmailStatusText } from './FormEmailSettings';

/**
 * What the owner must know above the list: the history is capped per site and its oldest entries
 * were (or are about to be) deleted; notifications wait for the notification address to confirm.
 */
export function HistoryNotices({ projectId, limit }: { projectId: number; limit: HistoryLimit }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const email = useFormEmail(projectId);
  return (
    <>
      {limit.warning === 'trimmed' && (
        <Alert kind="info" testId="form-history-trimmed">
          {t('formHistory.limit.trimmed', {
            max: limit.max_entries,
            count: limit.trimmed,
            date: limit.last_trimmed_at ? fmt.dateTime(limit.last_trimmed_at) : '',
          })}
        </Alert>
      )}
      {limit.warning === 'near' && (
        <Alert kind="info" testId="form-history-near">
          {t('formHistory.limit.near', { max: limit.max_entries })}
        </Alert>
      )}
      {email.data?.status === 'pending' && (
        <Alert kind="info" testId="form-email-pending">
          <FormEmailStatusText view={email.data} />
        </Alert>
      )}
    </>
  );
}
