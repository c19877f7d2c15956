import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '@/lib/format';
import { Alert } from '@/components/Alert';
import { PageLoader } from '@/components/PageLoader';
import { errorMessage } from '@/lib/api-client';
import { useUser } from '@/lib/auth/get-user';
import type { Currency, User } from '@/lib/types';
import { useBalance } from '@/features/account/api/get-balance';
import { useStorage } from '@/features/account/api/get-storage';
import { usePlans } from '@/lib/plans';
import { useStripeConfig } from '@/features/account/api/stripe';
import { useResendEmailConfirmation } from '@/features/account/api/email-confirmation';
import { monthOf } from '@/features/account/lib/months';
import { AccountForm, currencies } from './AccountForm';
import { PasswordForm } from './PasswordForm';
import { CardModal } from './CardModal';
import { PlansModal } from './PlansModal';
import { TransactionHistory } from './TransactionHistory';
import { ActionButton } from '@/components/ActionButton';

function PlanLine({ user, onOpenPlans }: { user: User; onOpenPlans: (currency: Currency) => void }) {
  const { t } = useTranslation();
  const plans = usePlans();
  const code = user.plan ?? 'basic';
  const name =
    plans.data?.find((plan) => plan.plan === code && plan.currency === user.currency)?.name ??
    t(`account.planCodes.${code}`);
  return (
    <div className="account-line">
      <dt>{t('account.plan')}</dt>
      <dd>
        <strong data-testid="account-plan">{name}</strong>
        <span className="button-row">
          {currencies.map((currency) => (
            <ActionButton
              key={currency}
              disabled={!plans.data}
              onClick={() => onOpenPlans(currency)}
              testId={`plans-open-${currency}`}
            >
              {t(`account.plansButton.${currency}`)}
            </ActionButton>
          ))}
        </span>
        {plans.isError && <Alert testId="plans-error">{errorMessage(plans.error)}</Alert>}
      </dd>
    </div>
  );
}

function PaymentLine({ user, onOpenCard }: { user: User; onOpenCard: () => void }) {
  const { t } = useTranslation();
  const config = useStripeConfig();
  return (
    <div className="account-line">
      <dt>{t('account.paymentMethod')}</dt>
      <dd>
        <span data-testid="account-card">{user.has_card ? t('account.hasCard') : t('account.noCard')}</span>
        {config.data === null && (
          <small className="muted" data-testid="card-not-configured">
            {t('account.cardNotConfigured')}
          </small>
        )}
        {config.data && (
          <ActionButton onClick={onOpenCard} testId="card-open">
            {user.has_card ? t('account.changeCard') : t('account.addCard')}
          </ActionButton>
        )}
        {config.isError && <Alert testId="card-config-error">{errorMessage(config.error)}</Alert>}
      </dd>
    </div>
  );
}

/** The sign-in address and whether it confirmed it takes notification mail, with a way to resend the link. */
function EmailLine({ user }: { user: User }) {
  const { t } = useTranslation();
  const resend = useResendEmailConfirmation();
  const confirmed = user.email_confirmed !== false;
  return (
    <div className="account-line">
      <dt>{t('account.email')}</dt>
      <dd>
        <span data-testid="account-email-status" data-confirmed={confirmed}>
          {confirmed
            ? t('account.emailConfirmed', { email: user.email })
            : t('account.emailUnconfirmed', { email: user.email })}
        </span>
        {!confirmed && (
          <ActionButton
            disabled={resend.isPending}
            onClick={() => resend.mutate()}
            testId="account-email-resend"
          >
            {t('account.emailResend')}
          </ActionButton>
        )}
        {resend.isSuccess && (
          <small className="muted" data-testid="account-email-sent">
            {t('account.emailSent', { email: user.email })}
          </small>
        )}
        {resend.isError && <Alert testId="account-email-error">{errorMessage(resend.error)}</Alert>}
      </dd>
    </div>
  );
}

function BalanceLine() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const balance = useBalance();
  return (
    <div className="account-line">
      <dt>{t('account.balance')}</dt>
      <dd>
        {balance.data && (
          <strong
            className={balance.data.amount < 0 ? 'amount-negative' : undefined}
            data-testid="account-balance"
          >
            {fmt.money(balance.data.amount, balance.data.currency)}
            {balance.data.amount < 0 && <span className="muted"> ({t('account.owed')})</span>}
          </strong>
        )}
        {balance.isError && <Alert testId="balance-error">{errorMessage(balance.error)}</Alert>}
      </dd>
    </div>
  );
}

/** What the account keeps against its fair share: uploaded files (bytes and count) and records. */
function StorageLine() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const storage = useStorage();
  const usage = storage.data;
  return (
    <div className="account-line">
      <dt>{t('account.storage')}</dt>
      <dd>
        {usage && (
          <>
            <span data-testid="account-storage-files">
              {t('account.storageFiles', {
                bytes: fmt.bytes(usage.bytes),
                maxBytes: fmt.bytes(usage.max_bytes),
                files: fmt.number(usage.files),
                maxFiles: fmt.number(usage.max_files),
              })}
            </span>
            <meter
              min={0}
              max={usage.max_bytes}
              value={usage.bytes}
              high={usage.max_bytes * 0.9}
              aria-label={t('account.storage')}
              data-testid="account-storage-meter"
            />
            <span data-testid="account-storage-records">
              {t('account.storageRecords', {
                records: fmt.number(usage.records),
                maxRecords: fmt.number(usage.max_records),
              })}
            </span>
            {usage.business && <small className="muted">{t('account.storageBusiness')}</small>}
            <small className="muted">{t('account.storageCollected')}</small>
          </>
        )}
        {storage.isError && <Alert testId="storage-error">{errorMessage(storage.error)}</Alert>}
      </dd>
    </div>
  );
}

interface Props {
  /** Today, for the month navigator; injected by tests. */
  now?: Date;
}

/** /user (spec 2 "Account screen"): account fields, plan, payment method, balance, storage use and transaction history. */
export function AccountScreen({ now }: Props) {
  const { t } = useTranslation();
  const user = useUser();
  const plans = usePlans();
  const config = useStripeConfig();
  const [plansCurrency, setPlansCurrency] = useState<Currency | null>(null);
  const [cardOpen, setCardOpen] = useState(false);
  const [currentMonth] = useState(() => monthOf(now ?? new Date()));

  if (user.isPending) return <PageLoader />;
  if (!user.data)
    return (
      <Alert testId="account-error">{user.isError ? errorMessage(user.error) : t('common.error')}</Alert>
    );
  const account = user.data;

  return (
    <div className="page" data-testid="account-screen">
      <header className="page-header">
        <h1>{t('account.title')}</h1>
      </header>
      <div className="two-columns">
        <AccountForm key={account.id} user={account} />
        <section className="card">
          <dl className="account-summary">
            <EmailLine user={account} />
            <PlanLine user={account} onOpenPlans={setPlansCurrency} />
            <PaymentLine user={account} onOpenCard={() => setCardOpen(true)} />
            <BalanceLine />
            <StorageLine />
          </dl>
        </section>
      </div>
      <PasswordForm key={`password-${account.id}`} user={account} />
      <TransactionHistory currentMonth={currentMonth} />
      {plansCurrency && plans.data && (
        <PlansModal
          currency={plansCurrency}
          plans={plans.data}
          current={{ plan: account.plan ?? 'basic', currency: account.currency }}
          onClose={() => setPlansCurrency(null)}
        />
      )}
      {cardOpen && config.data && (
        <CardModal user={account} config={config.data} onClose={() => setCardOpen(false)} />
      )}
    </div>
  );
}
