import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The editor canvas in a real browser: the built dashboard served by `vite preview` (port 0),
// every /api call answered by the test (no control plane needed), driven in Debian's chromium.
// It covers what jsdom can't: the sandboxed srcdoc iframe, postMessage between real windows,
// drag and drop across the iframe, and the time from a field edit to the canvas. The analytics
// screen's check (e2e/analytics.browser.ts) runs here too, for the same reasons: uPlot's canvas,
// axe-core on real layout and colours, and a 390 px phone's width.
export default defineConfig({
  // `@/` is `src/` (tsconfig.json's `paths` says the same to the type checker).
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    include: ['e2e/**/*.browser.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
