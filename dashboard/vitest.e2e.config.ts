import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// End-to-end suite: starts the real control plane (see e2e/global-setup.ts) and drives
// the built dashboard in Debian's chromium through playwright-core.
export default defineConfig({
  // `@/` is `src/` (tsconfig.json's `paths` says the same to the type checker).
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
