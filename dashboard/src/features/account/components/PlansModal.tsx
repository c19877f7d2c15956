import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/ui/Dialog';
import { useFormat } from '@/lib/format';
import type { Currency, PlanCode } from '@/lib/types';
import type { Plan } from '@/lib/plans';

interface Props {
  currency: Currency;
  plans: Plan[];
  /** The account's plan, marked when shown in the account's currency. */
  current: { plan: PlanCode; currency: Currency } | null;
  onClose: () => void;
}

/** Spec 2 §9: the plans of one currency with their prices, monthly fee and support lines. */
export function PlansModal({ currency, plans, current, onClose }: Props) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const shown = plans.filter((plan) => plan.currency === currency);
  return (
    <Dialog title={t(`account.plansTitle.${currency}`)} onClose={onClose} testId={`plans-modal-${currency}`}>
      {shown.length === 0 ? (
        <p className="muted" data-testid="plans-empty">
          {t('account.plansEmpty')}
        </p>
      ) : (
        <div className="plans-grid">
          {shown.map((plan) => {
            const isCurrent = current?.plan === plan.plan && current.currency === plan.currency;
            return (
              <section
                key={plan.plan}
                className={`card plan-card${isCurrent ? ' is-current' : ''}`}
                data-testid={`plan-${plan.plan}`}
              >
                <header className="plan-header">
                  <h3 data-testid="plan-name">{plan.name}</h3>
                  {isCurrent && (
                    <span className="badge badge-success" data-testid="plan-current">
                      {t('account.currentPlan')}
                    </span>
                  )}
                </header>
                <p className="plan-price" data-testid="plan-per-site">
                  {t('account.perSite', { amount: fmt.money(plan.per_site, plan.currency) })}
                </p>
                <p data-testid="plan-fee">
                  {plan.monthly_fee === 0
                    ? t('account.noMonthlyFee')
                    : t('account.monthlyFee', { amount: fmt.money(plan.monthly_fee, plan.currency) })}
                </p>
                <ul className="plan-support" data-testid="plan-support">
                  {plan.support.map((channel) => (
                    <li key={channel}>{t(`account.support.${channel}`)}</li>
                  ))}
                </ul>
              </section>
            );
          })}
        </div>
      )}
    </Dialog>
  );
}
