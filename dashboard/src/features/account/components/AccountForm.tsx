import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/Alert';
import { Form, FormActions } from '@/components/Form';
import { InputField, SelectField } from '@/components/FormControls';
import { FormField } from '@/components/FormField';
import { toast } from '@/components/toast';
import { useZodForm } from '@/lib/forms';
import { applyLanguage, languages, setLanguage, storedLanguage } from '@/lib/i18n';
import type { Language, User } from '@/lib/types';
import { useUpdateUser } from '@/features/account/api/update-user';
import { accountFormSchema, currencies, type AccountFormValues } from '@/features/account/lib/account-form';

export { currencies };

/** Switches the interface to the account's new language; a choice stored on this browser follows it. */
function followLanguage(language: Language) {
  if (storedLanguage() === null) applyLanguage(language);
  else setLanguage(language);
}

/** Name, e-mail (read only), language and currency, saved with POST /api/user. */
export function AccountForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const save = useUpdateUser();
  const { form, failure, bind, submitTo } = useZodForm(accountFormSchema, {
    defaultValues: { name: user.name, language: user.language, currency: user.currency },
    serverFields: ['name', 'language', 'currency'],
  });

  const submit = (values: AccountFormValues) =>
    submitTo(save, values, {
      onSuccess: (updated) => {
        if (updated.language !== user.language) followLanguage(updated.language);
        toast.success(t('account.saved'));
      },
    });

  return (
    <Form form={form} onValid={submit} className="card form" testId="account-form">
      <h2>{t('account.details')}</h2>
      {failure.message && <Alert testId="account-form-error">{failure.message}</Alert>}
      <InputField
        label={t('account.name')}
        id="account-name"
        required
        autoComplete="name"
        {...bind('name')}
      />
      <FormField label={t('account.email')} id="account-email">
        <input id="account-email" type="email" value={user.email} readOnly data-testid="account-email" />
      </FormField>
      <div className="two-columns">
        <SelectField label={t('account.language')} id="account-language" {...bind('language')}>
          {languages.map((option) => (
            <option key={option} value={option}>
              {t(`languages.${option}`)}
            </option>
          ))}
        </SelectField>
        <SelectField label={t('account.currency')} id="account-currency" {...bind('currency')}>
          {currencies.map((option) => (
            <option key={option} value={option}>
              {t(`account.currencies.${option}`)}
            </option>
          ))}
        </SelectField>
      </div>
      <FormActions isDisabled={save.isPending} testId="account-save" />
    </Form>
  );
}
