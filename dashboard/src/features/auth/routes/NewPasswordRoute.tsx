import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Alert } from '@/components/Alert';
import { Form, SubmitButton } from '@/components/Form';
import { FormField } from '@/components/FormField';
import { ApiError, errorMessage } from '@/lib/api-client';
import { errorText, setServerError } from '@/lib/forms';
import { useNewPassword } from '@/features/auth/api/new-password';
import { paths } from '@/app/paths';
import { newPasswordSchema, type NewPasswordValues } from '@/features/auth/lib/schemas';
import { ButtonLink } from '@/components/ButtonLink';

/** A link that is not one: no e-mail or no token in its query. Says so, and offers a new one. */
function BrokenLink() {
  const { t } = useTranslation();
  return (
    <div className="auth-page">
      <div className="card auth-card auth-card-single" data-testid="new-password-broken-link">
        <h2>{t('auth.newPassword.title')}</h2>
        <Alert>{t('forms.newPassword.brokenLink')}</Alert>
        <ButtonLink to="/forgot" variant="primary" testId="new-password-ask-again">
          {t('forms.newPassword.askAgain')}
        </ButtonLink>
        <Link to="/login" className="muted-link">
          {t('auth.backToLogin')}
        </Link>
      </div>
    </div>
  );
}

/**
 * Reached from the reset e-mail: the e-mail and the token come from the link's query, and the
 * token is never shown (a person has nothing to do with it). A link without them, or one the
 * server refuses (expired, used), explains itself and offers to send a new one.
 */
export function NewPasswordRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const email = params.get('email') ?? '';
  const token = (params.get('token') ?? '').trim();
  const newPassword = useNewPassword();
  const form = useForm<NewPasswordValues>({
    resolver: zodResolver(newPasswordSchema),
    defaultValues: { password: '' },
  });
  const { errors } = form.formState;

  if (email === '' || token === '') return <BrokenLink />;

  const submit = (values: NewPasswordValues) =>
    newPassword.mutate(
      { email, password: values.password, token },
      {
        onSuccess: () =>
          void navigate(paths.login.build(), {
            replace: true,
            state: { notice: t('auth.newPassword.done') },
          }),
        onError: (error) => setServerError(form, error, ['password']),
      },
    );

  const expired = newPassword.error instanceof ApiError && newPassword.error.field === 'token';

  return (
    <div className="auth-page">
      <Form
        form={form}
        onValid={submit}
        className="card auth-card auth-card-single"
        testId="new-password-form"
      >
        <h2>{t('auth.newPassword.title')}</h2>
        {expired && (
          <Alert testId="new-password-expired">
            {t('forms.newPassword.expired')}{' '}
            <Link to="/forgot" data-testid="new-password-ask-again">
              {t('forms.newPassword.askAgain')}
            </Link>
          </Alert>
        )}
        {newPassword.isError && !expired && !errors.password && (
          <Alert>{errorMessage(newPassword.error)}</Alert>
        )}
        <FormField label={t('auth.email')} id="np-email">
          <input type="email" value={email} readOnly autoComplete="username" />
        </FormField>
        <FormField
          label={t('auth.newPassword.password')}
          id="np-password"
          error={errorText(t, errors.password)}
        >
          {(control) => (
            <input {...control} type="password" autoComplete="new-password" {...form.register('password')} />
          )}
        </FormField>
        <SubmitButton isDisabled={newPassword.isPending}>{t('auth.newPassword.submit')}</SubmitButton>
        <Link to={paths.login.build()} className="muted-link">
          {t('auth.backToLogin')}
        </Link>
      </Form>
    </div>
  );
}
