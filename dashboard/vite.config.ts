/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The control plane listens on 127.0.0.1:8000 in development; in production it serves
// dist/ itself, so the app only ever uses relative URLs.
const controlPlane = 'http://127.0.0.1:8000';

export default defineConfig({
  // `@/` is `src/` (tsconfig.json's `paths` says the same to the type checker).
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  esbuild: { jsx: 'automatic' },
  server: {
    proxy: {
      '/api': controlPlane,
      '/files': controlPlane,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rollupOptions: {
      // "use client" directives of react-router / react-query mean nothing in an SPA bundle.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
      output: {
        // Long-lived vendor chunks: app deploys then don't invalidate the libraries' cache.
        manualChunks: {
          react: ['react', 'react-dom', 'react-router'],
          data: ['@tanstack/react-query', 'zod'],
          i18n: ['i18next', 'react-i18next'],
          dnd: ['@dnd-kit/core', '@dnd-kit/sortable', '@dnd-kit/utilities'],
        },
      },
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    // Component tests opt into jsdom with a `// @vitest-environment jsdom` first line.
    environment: 'node',
    setupFiles: ['src/testing/dom-layout.ts'],
  },
});
