import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/Alert';
import { Form, SubmitButton } from '@/components/Form';
import { FormField } from '@/components/FormField';
import { errorMessage } from '@/lib/api-client';
import { errorText, setServerError } from '@/lib/forms';
import { useRegister } from '@/features/auth/api/register';
import { registerSchema, type RegisterValues } from '@/features/auth/lib/schemas';

export function RegisterCard() {
  const { t } = useTranslation();
  const register = useRegister();
  const form = useForm<RegisterValues>({
    resolver: zodResolver(registerSchema),
    defaultValues: { name: '', email: '', password: '' },
  });
  const { errors } = form.formState;
  const onField = Boolean(errors.name ?? errors.email ?? errors.password);

  const submit = (values: RegisterValues) =>
    register.mutate(registerSchema.parse(values), {
      onError: (error) => setServerError(form, error, ['name', 'email', 'password']),
    });

  return (
    <Form form={form} onValid={submit} className="card auth-card" testId="register-form">
      <h2>{t('auth.register.title')}</h2>
      {register.isError && !onField && <Alert testId="register-error">{errorMessage(register.error)}</Alert>}
      <FormField label={t('auth.name')} id="register-name" error={errorText(t, errors.name)}>
        {(control) => <input {...control} autoComplete="name" {...form.register('name')} />}
      </FormField>
      <FormField label={t('auth.email')} id="register-email" error={errorText(t, errors.email)}>
        {(control) => <input {...control} type="email" autoComplete="email" {...form.register('email')} />}
      </FormField>
      <FormField label={t('auth.password')} id="register-password" error={errorText(t, errors.password)}>
        {(control) => (
          <input {...control} type="password" autoComplete="new-password" {...form.register('password')} />
        )}
      </FormField>
      <SubmitButton isDisabled={register.isPending} testId="register-submit">
        {t('auth.register.submit')}
      </SubmitButton>
    </Form>
  );
}
