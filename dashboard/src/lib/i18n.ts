/** i18next set-up: pt-BR by default, the visitor's choice in localStorage. */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '@/locales/en.json';
import ptBR from '@/locales/pt-BR.json';
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

const initialLanguage = storedLanguage() ?? defaultLanguage;
document.documentElement.lang = initialLanguage;

void i18n.use(initReactI18next).init({
  resources: { 'pt-BR': { translation: ptBR }, en: { translation: en } },
  lng: initialLanguage,
  fallbackLng: defaultLanguage,
  interpolation: { escapeValue: false },
  returnNull: false,
});

export default i18n;
