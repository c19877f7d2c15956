import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/Alert';
import { Dialog } from '@/components/ui/Dialog';
import { PageLoader } from '@/components/PageLoader';
import { errorMessage } from '@/lib/api-client';
import { useFormat } from '@/lib/format';
import { useDayTransactions } from '@/features/account/api/get-transactions';
import { dayOf } from '@/features/account/lib/months';

interface Props {
  month: string;
  /** yyyy-mm-dd */
  date: string;
  onClose: () => void;
}

/** That day's transactions (GET /api/transactions/{yyyy-mm}/{dd}). */
export function DayTransactionsModal({ month, date, onClose }: Props) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const day = useDayTransactions(month, dayOf(date));
  return (
    <Dialog title={t('account.dayTitle', { date: fmt.day(date) })} onClose={onClose} testId="day-modal">
      {day.isPending ? (
        <PageLoader />
      ) : day.isError ? (
        <Alert testId="day-error">{errorMessage(day.error)}</Alert>
      ) : day.data.length === 0 ? (
        <p className="muted" data-testid="day-empty">
          {t('account.dayEmpty')}
        </p>
      ) : (
        <table className="data-table">
          <thead>
            <tr>
              <th>{t('account.dateTime')}</th>
              <th>{t('account.description')}</th>
              <th className="amount-cell">{t('account.amount')}</th>
            </tr>
          </thead>
          <tbody>
            {day.data.map((row) => (
              <tr key={row.id} data-testid={`transaction-${row.id}`}>
                <td>{fmt.dateTime(row.created_at)}</td>
                <td data-testid="transaction-description">{row.description}</td>
                <td
                  className={`amount-cell${row.amount < 0 ? ' amount-negative' : ''}`}
                  data-testid="transaction-amount"
                >
                  {fmt.money(row.amount, row.currency)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Dialog>
  );
}
