/// <reference types="vitest/config" />
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import { paths } from './src/app/paths.ts';
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

/** Screens whose chunks index.html fetches with the entry when the page opens on them. */
const firstScreens: Record<string, string> = {
  [paths.login.pattern]: 'src/features/auth/routes/LoginRoute.tsx',
};

/**
 * Fetches with the entry, not after it runs, what the first render waits for: the core of the
 * visitor's catalogue (pt-BR, or English when chosen on this browser) and, on the sign-in page,
 * its screen's chunks. A small inline script in index.html adds their modulepreload links (the
 * language and the path are known only in the browser); without it they would be a second round
 * of requests, started by the entry's dynamic imports.
 */
function firstScreenPreloads(): Plugin {
  return {
    name: 'vitrine-first-screen-preloads',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const chunks = Object.values(context.bundle ?? {}).filter(
          (output): output is Rolldown.OutputChunk => output.type === 'chunk',
        );
        const byModule = (id: string) => chunks.find((chunk) => chunk.facadeModuleId?.endsWith(id));
        const closure = (chunk: Rolldown.OutputChunk | undefined, into = new Set<string>()) => {
          if (!chunk || into.has(chunk.fileName)) return into;
          into.add(chunk.fileName);
          for (const name of chunk.imports)
            closure(
              chunks.find((other) => other.fileName === name),
              into,
            );
          return into;
        };
        const entry = closure(chunks.find((chunk) => chunk.isEntry));
        const files = (id: string) => {
          const found = byModule(id);
          if (!found) throw new Error(`firstScreenPreloads: no chunk for ${id}`);
          return [...closure(found)].filter((file) => !entry.has(file)).map((file) => `/${file}`);
        };
        const hints = {
          core: { 'pt-BR': files('virtual:catalogue/pt-BR/core'), en: files('virtual:catalogue/en/core') },
          screens: Object.fromEntries(Object.entries(firstScreens).map(([path, id]) => [path, files(id)])),
        };
        const script = `(function(h){var l;try{l=localStorage.getItem('vitrine.language')}catch(e){}
var f=(h.core[l]||h.core['pt-BR']).concat(h.screens[location.pathname]||[]);
f.forEach(function(u){var k=document.createElement('link');k.rel='modulepreload';k.crossOrigin='';k.href=u;document.head.appendChild(k)})
})(${JSON.stringify(hints)})`;
        // Right after the title: before the stylesheet, which a classic script would wait for.
        return html.replace('</title>', `</title>\n    <script>${script}</script>`);
      },
    },
  };
}

export default defineConfig({
  plugins: [catalogueParts(), firstScreenPreloads()],
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
