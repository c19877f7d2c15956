/**
 * i18next set-up: pt-BR by default, the visitor's choice in localStorage.
 *
 * Only the active language's catalogue is downloaded, and in two parts (src/locales/parts.ts,
 * each part its own chunk): the core before the first render (main.tsx waits for `i18nReady`),
 * enough for the sign-in screens and the app's frame, including the server's error codes that
 * lib/api-client.ts translates; the rest when a screen that needs it is opened
 * (`loadFullCatalogue`, which the router's lazy screens await). i18next loads the parts through
 * i18next-resources-to-backend (i18next's own adapter from "a function that returns the
 * resources" to a backend), so it keeps doing the caching and the language changes: a switch
 * loads the other language (its core, or all of it once the rest was asked for) and then
 * re-renders. Both catalogues hold every key (locales.test.ts), so there is no fallback language
 * to download as well; `load: 'currentOnly'` keeps i18next from asking for a bare `pt`. When the
 * rest arrives, the screens re-render (`bindI18nStore: 'added'`).
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

type Sections = Record<string, unknown>;

const parts: Record<Language, { core: () => Promise<Sections>; rest: () => Promise<Sections> }> = {
  'pt-BR': {
    core: async () => (await import('virtual:catalogue/pt-BR/core')).default,
    rest: async () => (await import('virtual:catalogue/pt-BR/rest')).default,
  },
  en: {
    core: async () => (await import('virtual:catalogue/en/core')).default,
    rest: async () => (await import('virtual:catalogue/en/rest')).default,
  },
};

/** Set once a screen past sign-in was asked for: from then on a language loads whole. */
let fullWanted = false;
const rests = new Map<Language, Promise<Sections>>();

/** The rest of `language`'s catalogue, downloaded once (again after a failure). */
function loadRest(language: Language): Promise<Sections> {
  let rest = rests.get(language);
  if (!rest) {
    rest = parts[language].rest();
    rest.catch(() => rests.delete(language));
    rests.set(language, rest);
  }
  return rest;
}

/** What i18next's backend loads for a language: its core, and its rest once that is wanted. */
async function loadCatalogue(language: string): Promise<Sections> {
  if (!isLanguage(language)) throw new Error(`no catalogue for language ${language}`);
  const core = await parts[language].core();
  return fullWanted ? { ...core, ...(await loadRest(language)) } : core;
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
    react: { bindI18nStore: 'added' },
  });

/**
 * Loads the rest of the catalogue of every language in use (the current one, one being switched
 * to, any loaded before): the router's screens past sign-in await it before they render. A
 * language whose core is still on its way gets its rest through `loadCatalogue`.
 */
export async function loadFullCatalogue(): Promise<void> {
  fullWanted = true;
  const inUse = languages.filter(
    (language) =>
      language === (i18n.language ?? initialLanguage) || i18n.hasResourceBundle(language, 'translation'),
  );
  await Promise.all(
    inUse.map(async (language) => {
      i18n.addResourceBundle(language, 'translation', await loadRest(language), true, true);
    }),
  );
}

export default i18n;
