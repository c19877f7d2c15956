/**
 * Vitest setup for every test file: the app loads a language's catalogue on demand (lib/i18n.ts,
 * a chunk per language). main.tsx waits for the first one before rendering; tests render without
 * main.tsx and read either language (`t(key, { lng: 'en' })`, a language switch mid-test), so
 * both catalogues are loaded here, before the test file runs. Node-environment tests have no
 * document, and none of them uses i18n.
 */
if (typeof document !== 'undefined') {
  const { default: i18n, i18nReady, languages } = await import('@/lib/i18n');
  await i18nReady;
  await i18n.loadLanguages([...languages]);
}
