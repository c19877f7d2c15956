import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Alert } from '@/components/Alert';
import { Form, FormActions } from '@/components/Form';
import { InputField } from '@/components/FormControls';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { useFormat } from '@/lib/format';
import { useZodForm } from '@/lib/forms';
import { isValidEmail } from '@/lib/validation';
import { useFormEmail } from '@/features/form-history/api/get-form-email';
import { useResendFormEmail } from '@/features/form-history/api/resend-form-email';
import { useSetFormEmail } from '@/features/form-history/api/set-form-email';
import type { FormEmail } from '@/features/form-history/types';
import { ActionButton } from '@/components/ActionButton';

/** What the owner reads about the notification address: sent to, waiting, or confirmed. */
export function FormEmailStatusText({ view }: { view: FormEmail }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  if (view.status === 'owner') return <>{t('formHistory.email.owner', { email: view.recipient })}</>;
  if (view.status === 'owner_unconfirmed')
    return <>{t('formHistory.email.ownerUnconfirmed', { email: view.recipient })}</>;
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
  const view = useFormEmail(projectId);
  if (view.isError) return <Alert>{errorMessage(view.error)}</Alert>;
  if (!view.data) return null;
  return <FormEmailForm projectId={projectId} current={view.data} />;
}

/** Empty (notifications go to the owner) or an address the server's `Email::parse` accepts. */
const formEmailSchema = z.object({
  email: z
    .string()
    .trim()
    .refine((value) => value.length === 0 || isValidEmail(value), 'validation.emailInvalid'),
});

function FormEmailForm({ projectId, current }: { projectId: number; current: FormEmail }) {
  const { t } = useTranslation();
  const save = useSetFormEmail();
  const resend = useResendFormEmail();
  const { form, failure, bind, submitTo } = useZodForm(formEmailSchema, {
    defaultValues: { email: current.email ?? '' },
    serverFields: ['email'],
    serverFieldMap: { formEmail: 'email' },
  });

  const submit = ({ email }: { email: string }) =>
    submitTo(
      save,
      { projectId, email },
      {
        onSuccess: (next) => {
          form.reset({ email: next.email ?? '' });
          toast.success(
            next.status === 'pending'
              ? t('formHistory.email.sent', { email: next.recipient })
              : t('formHistory.email.saved'),
          );
        },
      },
    );

  const again = () =>
    resend.mutate(projectId, {
      onSuccess: (next) => toast.success(t('formHistory.email.sent', { email: next.recipient })),
      onError: (error) => toast.error(errorMessage(error)),
    });

  return (
    <Form form={form} onValid={submit} className="form" testId="form-email-settings">
      {failure.message && <Alert>{failure.message}</Alert>}
      <InputField
        label={t('formHistory.email.label')}
        id="form-email"
        testId="form-email-input"
        type="email"
        placeholder={
          current.status === 'owner' || current.status === 'owner_unconfirmed' ? current.recipient : ''
        }
        description={t('formHistory.email.hint')}
        {...bind('email')}
      />
      <p
        className={`muted form-email-status form-email-${current.status}`}
        data-testid="form-email-status"
        data-status={current.status}
      >
        <FormEmailStatusText view={current} />
      </p>
      <FormActions
        before={
          current.status === 'pending' && (
            <ActionButton onClick={again} disabled={resend.isPending} testId="form-email-resend">
              {t('formHistory.email.resend')}
            </ActionButton>
          )
        }
        isDisabled={save.isPending || !form.formState.isDirty}
        testId="form-email-save"
      >
        {t('formHistory.email.save')}
      </FormActions>
    </Form>
  );
}
