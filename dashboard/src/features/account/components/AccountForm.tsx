import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/Alert';
import { FormField } from '@/components/FormField';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { applyLanguage, languages, setLanguage, storedLanguage } from '@/lib/i18n';
import type { Currency, Language, User } from '@/lib/types';
import { useUpdateUser } from '@/features/account/api/update-user';

export const currencies: readonly Currency[] = ['BRL', 'USD'];

/** Switches the interface to the account's new language; a choice stored on this browser follows it. */
function followLanguage(language: Language) {
  if (storedLanguage() === null) applyLanguage(language);
  else setLanguage(language);
}

/** Name, e-mail (read only), language and currency, saved with POST /api/user. */
export function AccountForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const save = useUpdateUser();
  const [name, setName] = useState(user.name);
  const [language, setLanguageChoice] = useState<Language>(user.language);
  const [currency, setCurrency] = useState<Currency>(user.currency);
  const [nameError, setNameError] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setNameError(t('account.nameRequired'));
      return;
    }
    setNameError(undefined);
    save.mutate(
      { name: name.trim(), language, currency },
      {
        onSuccess: (updated) => {
          if (updated.language !== user.language) followLanguage(updated.language);
          toast.success(t('account.saved'));
        },
      },
    );
  };

  return (
    <form onSubmit={submit} className="card form" noValidate data-testid="account-form">
      <h2>{t('account.details')}</h2>
      {save.isError && <Alert testId="account-form-error">{errorMessage(save.error)}</Alert>}
      <FormField label={t('account.name')} id="account-name" error={nameError}>
        <input
          id="account-name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          data-testid="account-name"
        />
      </FormField>
      <FormField label={t('account.email')} id="account-email">
        <input id="account-email" type="email" value={user.email} readOnly data-testid="account-email" />
      </FormField>
      <div className="two-columns">
        <FormField label={t('account.language')} id="account-language">
          <select
            id="account-language"
            value={language}
            onChange={(event) => setLanguageChoice(event.target.value as Language)}
            data-testid="account-language"
          >
            {languages.map((option) => (
              <option key={option} value={option}>
                {t(`languages.${option}`)}
              </option>
            ))}
          </select>
        </FormField>
        <FormField label={t('account.currency')} id="account-currency">
          <select
            id="account-currency"
            value={currency}
            onChange={(event) => setCurrency(event.target.value as Currency)}
            data-testid="account-currency"
          >
            {currencies.map((option) => (
              <option key={option} value={option}>
                {t(`account.currencies.${option}`)}
              </option>
            ))}
          </select>
        </FormField>
      </div>
      <div className="form-actions">
        <button
          type="submit"
          className="button button-primary"
          disabled={save.isPending}
          data-testid="account-save"
        >
          {t('common.save')}
        </button>
      </div>
    </form>
  );
}
