import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/Alert';
import { FormField } from '@/components/FormField';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { useFormat } from '@/lib/format';
import { useFormEmail } from '@/features/form-history/api/get-form-email';
import { useResendFormEmail } from '@/features/form-history/api/resend-form-email';
import { useSetFormEmail } from '@/features/form-history/api/set-form-email';
import type { FormEmail } from '@/features/form-history/types';

/** What the owner reads about the notification address: sent to, waiting, or confirmed. */
export function FormEmailStatusText({ view }: { view: FormEmail }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  if (view.status === 'owner') return <>{t('formHistory.email.owner', { email: view.recipient })}</>;
  if (view.status === 'confirmed') return <>{t('formHistory.email.confirmed', { email: view.recipient })}</>;
  if (view.requested_at === null) return <>{t('formHistory.email.notSent', { email: view.recipient })}</>;
  return (
    <>{t('formHistory.email.pending', { email: view.recipient, date: fmt.dateTime(view.requested_at) })}</>
  );
}

/**
 * The notification address of the project's forms (`formEmail`), in the form history settings:
 * saving a new one sends it a confirmation link, and nothing is mailed there until it is confirmed.
 */
export function FormEmailSettings({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const view = useFormEmail(projectId);
  const save = useSetFormEmail();
  const resend = useResendFormEmail();
  const [draft, setDraft] = useState<string | null>(null);

  if (view.isError) return <Alert>{errorMessage(view.error)}</Alert>;
  if (!view.data) return null;
  const current = view.data;
  const value = draft ?? current.email ?? '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      { projectId, email: value.trim() },
      {
        onSuccess: (next) => {
          setDraft(null);
          toast.success(
            next.status === 'pending'
              ? t('formHistory.email.sent', { email: next.recipient })
              : t('formHistory.email.saved'),
          );
        },
      },
    );
  };

  const again = () =>
    resend.mutate(projectId, {
      onSuccess: (next) => toast.success(t('formHistory.email.sent', { email: next.recipient })),
      onError: (error) => toast.error(errorMessage(error)),
    });

  return (
    <form onSubmit={submit} className="form" data-testid="form-email-settings">
      {save.isError && <Alert>{errorMessage(save.error)}</Alert>}
      <FormField
        label={t('formHistory.email.label')}
        id="form-email"
        description={t('formHistory.email.hint')}
      >
        <input
          id="form-email"
          type="email"
          value={value}
          placeholder={current.status === 'owner' ? current.recipient : ''}
          onChange={(event) => setDraft(event.target.value)}
          data-testid="form-email-input"
        />
      </FormField>
      <p
        className={`muted form-email-status form-email-${current.status}`}
        data-testid="form-email-status"
        data-status={current.status}
      >
        <FormEmailStatusText view={current} />
      </p>
      <div className="form-actions">
        {current.status === 'pending' && (
          <button
            type="button"
            className="button"
            onClick={again}
            disabled={resend.isPending}
            data-testid="form-email-resend"
          >
            {t('formHistory.email.resend')}
          </button>
        )}
        <button
          type="submit"
          className="button button-primary"
          disabled={save.isPending || draft === null}
          data-testid="form-email-save"
        >
          {t('formHistory.email.save')}
        </button>
      </div>
    </form>
  );
}
