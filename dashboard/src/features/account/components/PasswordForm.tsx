import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/Alert';
import { Form, FormActions } from '@/components/Form';
import { InputField } from '@/components/FormControls';
import { toast } from '@/components/toast';
import { useZodForm } from '@/lib/forms';
import type { User } from '@/lib/types';
import { useChangePassword } from '@/features/account/api/update-user';
import { passwordFormSchema, type PasswordFormValues } from '@/features/account/lib/account-form';

/** The form's three password inputs, in order. */
const PASSWORDS = [
  {
    name: 'current_password',
    label: 'account.password.current',
    id: 'password-current',
    autoComplete: 'current-password',
  },
  { name: 'new_password', label: 'account.password.new', id: 'password-new', autoComplete: 'new-password' },
  {
    name: 'confirm',
    label: 'account.password.confirm',
    id: 'password-confirm',
    autoComplete: 'new-password',
  },
] as const;

/**
 * The account's own password change (POST /api/user/password): the current password, then the new
 * one twice. The server ends every other session of the account; this one stays signed in. An
 * administrator signed in as the user cannot change it, so the form says so instead.
 */
export function PasswordForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const change = useChangePassword();
  const { form, failure, bind, submitTo } = useZodForm(passwordFormSchema, {
    defaultValues: { current_password: '', new_password: '', confirm: '' },
    serverFields: ['current_password', 'new_password'],
  });

  if (user.impersonator_id) {
    return (
      <section className="card" data-testid="password-form">
        <h2>{t('account.password.title')}</h2>
        <p className="muted">{t('errors.password_change_impersonated')}</p>
      </section>
    );
  }

  const submit = ({ current_password, new_password }: PasswordFormValues) =>
    submitTo(
      change,
      { current_password, new_password },
      {
        onSuccess: () => {
          form.reset();
          toast.success(t('account.password.changed'));
        },
      },
    );

  return (
    <Form form={form} onValid={submit} className="card form" testId="password-form">
      <h2>{t('account.password.title')}</h2>
      <p className="muted small">{t('account.password.help')}</p>
      {failure.message && <Alert testId="password-form-error">{failure.message}</Alert>}
      {PASSWORDS.map(({ name, label, id, autoComplete }) => (
        <InputField
          key={name}
          label={t(label)}
          id={id}
          type="password"
          required
          autoComplete={autoComplete}
          {...bind(name)}
        />
      ))}
      <FormActions isDisabled={change.isPending} testId="password-save">
        {t('account.password.submit')}
      </FormActions>
    </Form>
  );
}
