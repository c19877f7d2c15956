/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The control plane listens on 127.0.0.1:8000 in development; in production it serves
// dist/ itself, so the app only ever uses relative URLs.
const controlPlane = 'http://127.0.0.1:8000';

/** Vendor chunks by package (folder names under node_modules; scoped ones with their scope). */
const vendorChunks: [string, string[]][] = [
  ['react', ['react', 'react-dom', 'react-router', 'scheduler']],
  ['data', ['@tanstack/react-query', '@tanstack/query-core', 'zod']],
  ['i18n', ['i18next', 'react-i18next']],
  ['dnd', ['@dnd-kit/core', '@dnd-kit/sortable', '@dnd-kit/utilities', '@dnd-kit/accessibility']],
];

export default defineConfig({
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
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    // Component tests opt into jsdom with a `// @vitest-environment jsdom` first line.
    environment: 'node',
    setupFiles: ['src/testing/dom-layout.ts', 'src/testing/i18n-ready.ts'],
  },
});
