/**
 * Vitest setup for every test file: the app loads a language's catalogue on demand (lib/i18n.ts:
 * main.tsx waits for the core of one, the router's screens for the rest). Tests render without
 * main.tsx or the router's screens and read either language (`t(key, { lng: 'en' })`, a
 * language switch mid-test), so both catalogues are loaded whole here, before the test file
 * runs. Node-environment tests have no document, and none of them uses i18n.
 */
export {};

if (typeof document !== 'undefined') {
  const { default: i18n, i18nReady, languages, loadFullCatalogue } = await import('@/lib/i18n');
  await i18nReady;
  await i18n.loadLanguages([...languages]);
  await loadFullCatalogue();
}
