import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/Alert';
import { Form, SubmitButton } from '@/components/Form';
import { FormField } from '@/components/FormField';
import { errorMessage } from '@/lib/api-client';
import { errorText, setServerError } from '@/lib/form-errors';
import { lazyResolver } from '@/lib/lazy-resolver';
import { useRegister } from '@/features/auth/api/register';
import type { RegisterValues, RegisterOutput } from '@/features/auth/lib/schemas';

// zod and the schema come when the form is first used (lib/lazy-resolver.ts), not with the page.
const resolver = lazyResolver(async () => (await import('@/features/auth/lib/resolvers')).registerResolver);

export function RegisterCard() {
  const { t } = useTranslation();
  const register = useRegister();
  const form = useForm<RegisterValues, unknown, RegisterOutput>({
    resolver,
    defaultValues: { name: '', email: '', password: '' },
  });
  const { errors } = form.formState;
  const onField = Boolean(errors.name ?? errors.email ?? errors.password);

  const submit = (values: RegisterOutput) =>
    register.mutate(values, {
      onError: (error) => setServerError(form, error, ['name', 'email', 'password']),
    });

  return (
    <Form
      form={form}
      onValid={submit}
      onFocus={() => void resolver.preload()}
      className="card auth-card"
      testId="register-form"
    >
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
