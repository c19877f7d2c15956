/**
 * i18next set-up: pt-BR by default, the visitor's choice in localStorage.
 *
 * Only the active language's catalogue is downloaded: each catalogue is its own chunk, loaded by
 * a dynamic import through i18next-resources-to-backend (i18next's own adapter from "a function
 * that returns the resources" to a backend, so i18next keeps doing the loading, caching and
 * language changes). Both catalogues hold every key (locales.test.ts), so there is no fallback
 * language to download as well; `load: 'currentOnly'` keeps i18next from asking for a bare `pt`.
 * A language switch loads the other catalogue first and then re-renders, as i18next does with
 * any backend. `i18nReady` resolves once the first catalogue is in: main.tsx renders after it,
 * so no screen shows a key, and the server's error codes (translated through the catalogue by
 * lib/api-client.ts) find their texts.
 */
import i18n from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';
import { readLocal, storageKeys, writeLocal } from './storage';
import type { Language } from './types';

export const languages: readonly Language[] = ['pt-BR', 'en'];
export const defaultLanguage: Language = 'pt-BR';

function isLanguage(value: string | null): value is Language {
  return value !== null && (languages as readonly string[]).includes(value);
}

/** The language chosen on this browser, if any. */
export function storedLanguage(): Language | null {
  const value = readLocal(storageKeys.language);
  return isLanguage(value) ? value : null;
}

/** Switches the interface language without remembering it (the account's language). */
export function applyLanguage(language: Language): void {
  void i18n.changeLanguage(language);
  document.documentElement.lang = language;
}

/** The language switch: applies and remembers the choice on this browser. */
export function setLanguage(language: Language): void {
  writeLocal(storageKeys.language, language);
  applyLanguage(language);
}

/** One chunk per catalogue: Vite turns each JSON file under locales/ into its own module. */
async function loadCatalogue(language: string): Promise<object> {
  if (language === 'en') return (await import('@/locales/en.json')).default;
  if (language === 'pt-BR') return (await import('@/locales/pt-BR.json')).default;
  throw new Error(`no catalogue for language ${language}`);
}

const initialLanguage = storedLanguage() ?? defaultLanguage;
document.documentElement.lang = initialLanguage;

/** Resolves when the active language's catalogue is loaded and i18next is ready. */
export const i18nReady: Promise<unknown> = i18n
  .use(initReactI18next)
  .use(resourcesToBackend((language: string) => loadCatalogue(language)))
  .init({
    lng: initialLanguage,
    supportedLngs: languages,
    fallbackLng: false,
    load: 'currentOnly',
    interpolation: { escapeValue: false },
    returnNull: false,
  });

export default i18n;
