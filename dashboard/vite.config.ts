/// <reference types="vitest/config" />
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { cataloguePart } from './src/locales/parts.ts';

// The control plane listens on 127.0.0.1:8000 in development; in production it serves
// dist/ itself, so the app only ever uses relative URLs.
const controlPlane = 'http://127.0.0.1:8000';

/** Vendor chunks by package (folder names under node_modules; scoped ones with their scope). */
const vendorChunks: [string, string[]][] = [
  ['react', ['react', 'react-dom', 'react-router', 'scheduler']],
  ['query', ['@tanstack/react-query', '@tanstack/query-core']],
  // Apart from the query client: the sign-in page loads zod only when a form is used.
  ['zod', ['zod']],
  ['i18n', ['i18next', 'react-i18next']],
  ['dnd', ['@dnd-kit/core', '@dnd-kit/sortable', '@dnd-kit/utilities', '@dnd-kit/accessibility']],
];

const CATALOGUE = 'virtual:catalogue/';

/**
 * `virtual:catalogue/<language>/<core|rest>`: a part of src/locales/<language>.json (see
 * src/locales/parts.ts), each its own chunk, so the sign-in page downloads only the core of one
 * language. The catalogue files stay whole for translators and tests.
 */
function catalogueParts(): Plugin {
  return {
    name: 'vitrine-catalogue-parts',
    resolveId(id) {
      return id.startsWith(CATALOGUE) ? `\0${id}` : null;
    },
    load(id) {
      if (!id.startsWith(`\0${CATALOGUE}`)) return null;
      const [language, part] = id.slice(CATALOGUE.length + 1).split('/');
      if (!language || !/^[\w-]+$/.test(language) || (part !== 'core' && part !== 'rest')) {
        this.error(`unknown catalogue part ${id.slice(1)}`);
      }
      const file = fileURLToPath(new URL(`./src/locales/${language}.json`, import.meta.url));
      this.addWatchFile(file);
      const catalogue = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      const sections = cataloguePart(catalogue, part);
      // JSON.parse of a string literal: faster for the browser than an object literal this size.
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(sections))});`;
    },
  };
}

export default defineConfig({
  plugins: [catalogueParts()],
  // `@/` is `src/` (tsconfig.json's `paths` says the same to the type checker).
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: {
    proxy: {
      '/api': controlPlane,
      '/files': controlPlane,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: which chunk imports which, read by scripts/check-bundle-size.mjs.
    manifest: true,
    rolldownOptions: {
      // "use client" directives of react-router / react-query mean nothing in an SPA bundle.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
      output: {
        // Long-lived vendor chunks: app deploys then don't invalidate the libraries' cache.
        // (Rolldown's code-splitting groups; Vite 8 dropped Rollup's object-form manualChunks.)
        codeSplitting: {
          groups: vendorChunks.map(([name, packages]) => ({
            name,
            test: new RegExp(`[\\\\/]node_modules[\\\\/](${packages.join('|')})[\\\\/]`),
          })),
        },
      },
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.mjs'],
    // Component tests opt into jsdom with a `// @vitest-environment jsdom` first line.
    environment: 'node',
    setupFiles: ['src/testing/dom-layout.ts', 'src/testing/i18n-ready.ts'],
  },
});
