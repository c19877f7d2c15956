import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '@/components/Alert';
import { Form, SubmitButton } from '@/components/Form';
import { FormField } from '@/components/FormField';
import { errorMessage } from '@/lib/api-client';
import { errorText, setServerError } from '@/lib/form-errors';
import { lazyResolver } from '@/lib/lazy-resolver';
import { useLogin } from '@/features/auth/api/login';
import { paths } from '@/app/paths';
import type { LoginValues, LoginOutput } from '@/features/auth/lib/schemas';

// zod and the schema come when the form is first used (lib/lazy-resolver.ts), not with the page.
const resolver = lazyResolver(async () => (await import('@/features/auth/lib/resolvers')).loginResolver);

export function LoginCard() {
  const { t } = useTranslation();
  const login = useLogin();
  const form = useForm<LoginValues, unknown, LoginOutput>({
    resolver,
    defaultValues: { email: '', password: '' },
  });
  const { errors } = form.formState;

  const submit = (values: LoginOutput) =>
    login.mutate(values, {
      onError: (error) => setServerError(form, error, ['email', 'password']),
    });

  return (
    <Form
      form={form}
      onValid={submit}
      onFocus={() => void resolver.preload()}
      className="card auth-card"
      testId="login-form"
    >
      <h2>{t('auth.login.title')}</h2>
      {login.isError && !form.formState.errors.email && !form.formState.errors.password && (
        <Alert testId="login-error">{errorMessage(login.error)}</Alert>
      )}
      <FormField label={t('auth.email')} id="login-email" error={errorText(t, errors.email)}>
        {(control) => <input {...control} type="email" autoComplete="username" {...form.register('email')} />}
      </FormField>
      <FormField label={t('auth.password')} id="login-password" error={errorText(t, errors.password)}>
        {(control) => (
          <input
            {...control}
            type="password"
            autoComplete="current-password"
            {...form.register('password')}
          />
        )}
      </FormField>
      <SubmitButton isDisabled={login.isPending} testId="login-submit">
        {t('auth.login.submit')}
      </SubmitButton>
      <Link to={paths.forgot.build()} className="muted-link">
        {t('auth.login.forgot')}
      </Link>
    </Form>
  );
}
