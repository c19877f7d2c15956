import { useTranslation } from 'react-i18next';
import { languages, setLanguage } from '@/lib/i18n';

/** The interface's language, a select named for screen readers only; a choice is remembered. */
export function LanguageSwitch({ testId }: { testId?: string }) {
  const { t, i18n } = useTranslation();
  return (
    <label className="language-switch">
      <span className="sr-only">{t('header.language')}</span>
      <select
        value={i18n.language}
        data-testid={testId}
        onChange={(event) => {
          const language = languages.find((candidate) => candidate === event.target.value);
          if (language) setLanguage(language);
        }}
      >
        {languages.map((language) => (
          <option key={language} value={language}>
            {t(`languages.${language}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
