// ESLint 9 flat config. `npm run lint` runs it with --max-warnings 0, and scripts/test.sh fails on it.
//
// - typescript-eslint, type-aware (`recommendedTypeChecked`): the project service reads tsconfig.json, so the
//   rules that need types (floating promises, unsafe any, misused promises) see what tsc sees.
// - eslint-plugin-react-hooks 7: the rules of hooks and exhaustive deps (both errors), plus the React
//   Compiler's rules it ships in `recommended` (refs, purity, set-state-in-effect, ...).
// - eslint-plugin-jsx-a11y: the static accessibility rules (labels, roles, keyboard handlers); axe-core in
//   the end-to-end tests checks what only a rendered page shows.
// - eslint-plugin-boundaries: a feature (`src/features/<name>`) imports no other feature; shared code lives in
//   `src/components`, `src/lib`, or is composed in `src/app`.
// - eslint-config-prettier last: Prettier owns formatting (`npm run format:check`), so no rule here fights it.
//
// ESLint stays on 9: eslint-plugin-jsx-a11y 6.10 declares eslint ^3 … ^9 as its peer (see README.md).
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Who may import whom under src/. A feature imports no other feature; src/components, src/lib and
 * src/locales import no feature and nothing of src/app but the route table. A feature's screens import
 * nothing of src/app but the route table either; its tests may (they render the app's guards and
 * compositions around the feature, as the router does).
 */
function boundaryPolicies({ tests }) {
  const policies = [
    {
      from: { element: { type: 'feature' } },
      disallow: {
        to: {
          element: { type: 'feature', captured: { featureName: '!{{ from.element.captured.featureName }}' } },
        },
      },
      message:
        'A feature imports no other feature: move what both need to src/components or src/lib, or compose them in src/app.',
    },
    {
      from: { element: { type: 'shared' } },
      // Their own tests may use the test harness in src/testing.
      disallow: { to: { element: { types: tests ? ['feature', 'app'] : ['feature', 'app', 'testing'] } } },
      message:
        'src/components, src/lib and src/locales import no feature and nothing of src/app but paths.ts.',
    },
  ];
  if (!tests) {
    policies.push({
      from: { element: { type: 'feature' } },
      disallow: { to: { element: { type: 'app' } } },
      message:
        'A feature imports nothing of src/app but paths.ts: src/app composes features, not the reverse.',
    });
  }
  // The last policy that matches decides: the route table stays importable from everywhere.
  policies.push({ allow: { to: { file: { categories: 'route-table' } } } });
  return { default: 'allow', policies };
}

export default tseslint.config(
  // The API's types are generated (npm run api:types), not written here.
  {
    ignores: ['dist/**', 'node_modules/**', 'public/**', 'scripts/swagger-ui/**', 'src/lib/api/schema.d.ts'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      ecmaVersion: 2022,
      globals: { ...globals.browser },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    // Node scripts and this file: plain JavaScript outside tsconfig.json, no type information.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: { ...globals.node } },
  },
  {
    files: ['e2e/**', 'vite.config.ts', 'vitest.*.config.ts'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['src/**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      // A labelled scroll region (role="region") takes focus so the keyboard can scroll it, as axe's
      // scrollable-region-focusable asks; the recommended setting allows only tabpanel.
      'jsx-a11y/no-noninteractive-tabindex': [
        'error',
        { tags: [], roles: ['tabpanel', 'region'], allowExpressionValues: true },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { typescript: { project: './tsconfig.json' } },
      'boundaries/include': ['src/**/*'],
      // paths.ts is the route table every layer reads: the one file of src/app that others may import.
      'boundaries/files': [{ category: 'route-table', pattern: 'src/app/paths.ts' }],
      'boundaries/elements': [
        { type: 'app', pattern: 'src/app' },
        { type: 'feature', pattern: 'src/features/*', capture: ['featureName'] },
        { type: 'testing', pattern: 'src/testing' },
        { type: 'shared', pattern: ['src/components', 'src/lib', 'src/locales'] },
      ],
    },
    rules: { 'boundaries/dependencies': ['error', boundaryPolicies({ tests: true })] },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}'],
    rules: { 'boundaries/dependencies': ['error', boundaryPolicies({ tests: false })] },
  },
  {
    rules: {
      // `_`-prefixed names are deliberately unused (tsc's noUnusedLocals says the same).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // A dialog that opens moves focus into itself, to its first field or its safe button (the WAI-ARIA
    // dialog pattern). Everywhere else autoFocus stays an error: focus that jumps on page load
    // disorients screen reader users. DialogActions.tsx holds the dialogs' footers.
    files: [
      'src/**/*Modal.tsx',
      'src/**/*Dialog.tsx',
      'src/components/DialogActions.tsx',
      // Its `autoFocus` is passed on; only the dialogs that use it set it.
      'src/components/NameSlugFields.tsx',
      'src/features/redirects/components/RedirectForm.tsx',
    ],
    rules: { 'jsx-a11y/no-autofocus': 'off' },
  },
  {
    files: ['src/**/*.test.{ts,tsx}'],
    rules: {
      // Tests hand mocked methods to `expect(window.confirm).toHaveBeenCalled…`: vitest reads the mock's
      // records and never calls the method, so an unbound `this` cannot happen there.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  prettier,
);
