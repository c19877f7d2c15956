/**
 * A language's catalogue comes in two parts (lib/i18n.ts): the core, the sections the sign-in
 * screens and the app's frame (header, guards, error screens, toasts, the server's error codes,
 * the forms' validation messages) need, loaded before the first render; and the rest, loaded
 * with any other screen. vite.config.ts builds the parts from the catalogue files as the virtual
 * modules `virtual:catalogue/<language>/core` and `…/rest`; catalogue-parts.test.ts checks that
 * the sign-in screens and the frame ask for no key outside the core.
 */
export const coreSections: readonly string[] = [
  'auth',
  'common',
  'documentTitle',
  'errors',
  'forbidden',
  'forms',
  'header',
  'impersonation',
  'landmarks',
  'languages',
  'notFound',
  'routeError',
  'validation',
];

export type CataloguePart = 'core' | 'rest';

/** The sections of `catalogue` in `part`: the core's, or all the others. */
export function cataloguePart(
  catalogue: Record<string, unknown>,
  part: CataloguePart,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(catalogue).filter(([section]) => coreSections.includes(section) === (part === 'core')),
  );
}
