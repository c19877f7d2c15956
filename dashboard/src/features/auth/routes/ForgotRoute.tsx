import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '@/components/Alert';
import { Form, SubmitButton } from '@/components/Form';
import { FormField } from '@/components/FormField';
import { errorMessage } from '@/lib/api-client';
import { errorText, setServerError } from '@/lib/forms';
import { useForgot } from '@/features/auth/api/forgot';
import { paths } from '@/app/paths';
import { forgotSchema, type ForgotValues } from '@/features/auth/lib/schemas';

export function ForgotRoute() {
  const { t } = useTranslation();
  const forgot = useForgot();
  const form = useForm<ForgotValues>({ resolver: zodResolver(forgotSchema), defaultValues: { email: '' } });
  const { errors } = form.formState;

  const submit = (values: ForgotValues) =>
    forgot.mutate(forgotSchema.parse(values), {
      onError: (error) => setServerError(form, error, ['email']),
    });

  return (
    <div className="auth-page">
      <Form form={form} onValid={submit} className="card auth-card auth-card-single" testId="forgot-form">
        <h2>{t('auth.forgot.title')}</h2>
        {forgot.isError && !errors.email && <Alert>{errorMessage(forgot.error)}</Alert>}
        {forgot.isSuccess && (
          <Alert kind="success" testId="forgot-sent">
            {t('auth.forgot.sent')}
          </Alert>
        )}
        <FormField label={t('auth.email')} id="forgot-email" error={errorText(t, errors.email)}>
          {(control) => <input {...control} type="email" autoComplete="email" {...form.register('email')} />}
        </FormField>
        <SubmitButton isDisabled={forgot.isPending}>{t('auth.forgot.submit')}</SubmitButton>
        <Link to={paths.login.build()} className="muted-link">
          {t('auth.backToLogin')}
        </Link>
      </Form>
    </div>
  );
}
