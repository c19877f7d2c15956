import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/PageHeader';
import { useFormat } from '@/lib/format';
import { Alert } from '@/components/Alert';
import { PageLoader } from '@/components/PageLoader';
import { errorMessage } from '@/lib/api-client';
import { useMonthTransactions } from '@/features/account/api/get-transactions';
import { addMonths } from '@/features/account/lib/months';
import { DayTransactionsModal } from './DayTransactionsModal';
import { ActionButton } from '@/components/ActionButton';

/** The month navigator (< and >, from the current month back) and one row per day with a Detail button. */
export function TransactionHistory({ currentMonth }: { currentMonth: string }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const [month, setMonth] = useState(currentMonth);
  const [openDay, setOpenDay] = useState<string | null>(null);
  const history = useMonthTransactions(month);
  const atCurrent = month >= currentMonth;

  return (
    <section className="card" data-testid="transaction-history">
      <PageHeader title={t('account.history')} level={2} actionsClassName="month-nav">
        <ActionButton
          aria-label={t('account.previousMonth')}
          onClick={() => setMonth(addMonths(month, -1))}
          testId="month-previous"
        >
          &lt;
        </ActionButton>
        <span className="month-label" data-testid="month-label" data-month={month}>
          {fmt.month(month)}
        </span>
        <ActionButton
          aria-label={t('account.nextMonth')}
          disabled={atCurrent}
          onClick={() => setMonth(addMonths(month, 1))}
          testId="month-next"
        >
          &gt;
        </ActionButton>
      </PageHeader>
      {history.isPending ? (
        <PageLoader />
      ) : history.isError ? (
        <Alert testId="history-error">{errorMessage(history.error)}</Alert>
      ) : history.data.days.length === 0 ? (
        <p className="muted empty" data-testid="history-empty">
          {t('account.noTransactions')}
        </p>
      ) : (
        <table className="data-table">
          <thead>
            <tr>
              <th>{t('account.date')}</th>
              <th>{t('account.count')}</th>
              <th className="amount-cell">{t('account.total')}</th>
              <th>{t('common.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {history.data.days.map((day) => (
              <tr key={day.date} data-testid={`day-${day.date}`}>
                <td>{fmt.day(day.date)}</td>
                <td>{day.count}</td>
                <td
                  className={`amount-cell${day.total < 0 ? ' amount-negative' : ''}`}
                  data-testid="day-total"
                >
                  {fmt.money(day.total, history.data.currency)}
                </td>
                <td className="actions-cell">
                  <ActionButton onClick={() => setOpenDay(day.date)} testId="day-detail">
                    {t('account.detail')}
                  </ActionButton>
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th colSpan={2}>{t('account.monthTotal')}</th>
              <th className="amount-cell" data-testid="month-total">
                {fmt.money(history.data.total, history.data.currency)}
              </th>
              <th />
            </tr>
          </tfoot>
        </table>
      )}
      {openDay && <DayTransactionsModal month={month} date={openDay} onClose={() => setOpenDay(null)} />}
    </section>
  );
}
