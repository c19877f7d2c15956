// The dashboard's JavaScript budgets (issue 42, "A light dashboard"): what a browser downloads
// for the sign-in page and for the project list, gzipped, must stay under a limit.
//
// It reads the build's manifest (dist/.vite/manifest.json, `build.manifest` in vite.config.ts)
// and index.html, and counts for each page the JavaScript files the browser fetches before the
// screen shows:
//   - every script and modulepreload that dist/index.html names;
//   - the entry (index.html's manifest chunk) and its static imports, recursively;
//   - the page's route chunk (react-router's `lazy`, src/app/router.tsx) and its static imports,
//     recursively (Vite preloads them with the route's chunk);
//   - the default language's catalogue, its parts the page loads (src/locales/parts.ts: the core
//     before the first render, the rest with any screen past sign-in), and their imports.
// Each file is gzipped by node:zlib at level 9 (the highest; what a server compressing ahead of
// time sends) and counted once per page. Sizes are in kB of 1,000 bytes, as Vite prints them.
//
// Usage: node scripts/check-bundle-size.mjs [--dist DIR] [--sign-in KB] [--project-list KB]
// The budgets also come from BUDGET_SIGN_IN_KB and BUDGET_PROJECT_LIST_KB (the arguments win).
// Exit 0 within budget, 1 over it (listing the page's chunks, largest first), 2 when the build is
// missing or does not hold what the pages need (a renamed route: fix PAGES below).
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

export const DEFAULT_BUDGETS = { signIn: 170, projectList: 250 };

const CORE = 'virtual:catalogue/pt-BR/core';
const REST = 'virtual:catalogue/pt-BR/rest';

/** The pages with a budget: the manifest keys of their route chunks and catalogue parts. */
export const PAGES = [
  {
    id: 'signIn',
    name: 'sign-in page (/login)',
    route: 'src/features/auth/routes/LoginRoute.tsx',
    catalogue: [CORE],
  },
  {
    id: 'projectList',
    name: 'project list (/)',
    route: 'src/features/projects/routes/DashboardRoute.tsx',
    catalogue: [CORE, REST],
  },
];

export class BuildError extends Error {}

/** The files index.html makes the browser fetch as modules: its scripts and modulepreloads. */
export function htmlScripts(html) {
  const files = [];
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const isScript = tag.startsWith('<script') && /\btype="module"/.test(tag);
    const isPreload = tag.startsWith('<link') && /\brel="modulepreload"/.test(tag);
    const url = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1];
    if ((isScript || isPreload) && url) files.push(url.replace(/^\//, ''));
  }
  return files;
}

/** The manifest chunk `key` and its static imports, recursively: their output files. */
export function staticClosure(manifest, key) {
  const files = new Set();
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name)) return;
    seen.add(name);
    const chunk = manifest[name];
    if (!chunk) throw new BuildError(`the build's manifest has no chunk "${name}"`);
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(key);
  return files;
}

/** The manifest key of the HTML entry (index.html). */
function entryKey(manifest) {
  const key = Object.keys(manifest).find((name) => manifest[name].isEntry && name.endsWith('index.html'));
  if (!key) throw new BuildError("the build's manifest has no entry for index.html");
  return key;
}

/** Every JavaScript file a page downloads before it shows, with its gzipped size in bytes. */
export function pageChunks(dist, manifest, html, page) {
  const files = new Set([
    ...htmlScripts(html),
    ...staticClosure(manifest, entryKey(manifest)),
    ...staticClosure(manifest, page.route),
    ...page.catalogue.flatMap((part) => [...staticClosure(manifest, part)]),
  ]);
  return [...files]
    .filter((file) => file.endsWith('.js'))
    .map((file) => {
      let code;
      try {
        code = readFileSync(join(dist, file));
      } catch {
        throw new BuildError(`${file} is named by the build but missing from ${dist}`);
      }
      return { file, bytes: code.length, gzip: gzipSync(code, { level: 9 }).length };
    })
    .sort((a, b) => b.gzip - a.gzip);
}

const kB = (bytes) => (bytes / 1000).toFixed(1);

/** Measures every page against its budget (kB); returns the report's lines and whether all fit. */
export function checkBudgets(dist, budgets) {
  let manifest;
  let html;
  try {
    manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
    html = readFileSync(join(dist, 'index.html'), 'utf8');
  } catch (error) {
    throw new BuildError(`no build to measure in ${dist} (run npm run build first): ${error.message}`);
  }
  const lines = [];
  let ok = true;
  for (const page of PAGES) {
    const chunks = pageChunks(dist, manifest, html, page);
    const total = chunks.reduce((sum, chunk) => sum + chunk.gzip, 0);
    const budget = budgets[page.id];
    const fits = total <= budget * 1000;
    ok &&= fits;
    lines.push(
      `${fits ? 'ok  ' : 'OVER'} ${page.name}: ${kB(total)} kB gzip of JavaScript in ${chunks.length} files (budget ${budget} kB)`,
    );
    if (!fits) {
      lines.push(`     over by ${kB(total - budget * 1000)} kB; its chunks, largest first (gzip, raw):`);
      for (const chunk of chunks)
        lines.push(`     ${kB(chunk.gzip).padStart(7)} kB ${kB(chunk.bytes).padStart(8)} kB  ${chunk.file}`);
    }
  }
  return { lines, ok };
}

function budgetFrom(argument, variable, fallback) {
  const text = argument ?? process.env[variable];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0)
    throw new BuildError(`budget "${text}" is not a positive number of kB`);
  return value;
}

function main() {
  const { values } = parseArgs({
    options: {
      dist: { type: 'string' },
      'sign-in': { type: 'string' },
      'project-list': { type: 'string' },
    },
  });
  const here = dirname(fileURLToPath(import.meta.url));
  const dist = resolve(values.dist ?? join(here, '..', 'dist'));
  try {
    const budgets = {
      signIn: budgetFrom(values['sign-in'], 'BUDGET_SIGN_IN_KB', DEFAULT_BUDGETS.signIn),
      projectList: budgetFrom(values['project-list'], 'BUDGET_PROJECT_LIST_KB', DEFAULT_BUDGETS.projectList),
    };
    const { lines, ok } = checkBudgets(dist, budgets);
    console.log(`JavaScript budgets (gzip level 9) of ${dist}:`);
    for (const line of lines) console.log(line);
    if (!ok) {
      console.error('JavaScript budget exceeded: see the chunks above (README.md, "JavaScript budgets").');
      process.exitCode = 1;
    }
  } catch (error) {
    if (!(error instanceof BuildError)) throw error;
    console.error(`check-bundle-size: ${error.message}`);
    process.exitCode = 2;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
