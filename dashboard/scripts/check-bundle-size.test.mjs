// Unit tests of check-bundle-size.mjs on a small fake build (a manifest, index.html and chunks of
// random, so incompressible, bytes): what it counts for each page, and that it fails over budget.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkBudgets, htmlScripts, pageChunks, PAGES, staticClosure } from './check-bundle-size.mjs';

const SCRIPT = fileURLToPath(new URL('./check-bundle-size.mjs', import.meta.url));
const [signIn, projectList] = PAGES;

const manifest = {
  'index.html': {
    file: 'assets/index.js',
    isEntry: true,
    imports: ['_react.js'],
    dynamicImports: [signIn.route, projectList.route, 'virtual:catalogue/pt-BR/core'],
  },
  '_react.js': { file: 'assets/react.js' },
  '_form.js': { file: 'assets/form.js', imports: ['_react.js'] },
  '_dialog.js': { file: 'assets/dialog.js', imports: ['_react.js'] },
  [signIn.route]: { file: 'assets/login.js', imports: ['_form.js'], isDynamicEntry: true },
  [projectList.route]: {
    file: 'assets/projects.js',
    imports: ['_dialog.js'],
    // Loaded on a click, not with the page: not counted.
    dynamicImports: ['src/Editor.tsx'],
    isDynamicEntry: true,
  },
  'src/Editor.tsx': { file: 'assets/editor.js', isDynamicEntry: true },
  'virtual:catalogue/pt-BR/core': { file: 'assets/core.js', isDynamicEntry: true },
  'virtual:catalogue/pt-BR/rest': { file: 'assets/rest.js', isDynamicEntry: true },
};
const sizes = {
  'index.js': 3000,
  'react.js': 20000,
  'form.js': 5000,
  'dialog.js': 8000,
  'login.js': 1000,
  'projects.js': 2000,
  'editor.js': 50000,
  'core.js': 4000,
  'rest.js': 6000,
  'preloaded.js': 500,
};
const html = `<!doctype html><html><head>
<script type="module" crossorigin src="/assets/index.js"></script>
<link rel="modulepreload" crossorigin href="/assets/react.js">
<link rel="modulepreload" crossorigin href="/assets/preloaded.js">
<link rel="stylesheet" crossorigin href="/assets/index.css">
</head><body><div id="root"></div></body></html>`;

const dist = mkdtempSync(join(tmpdir(), 'bundle-size-'));
mkdirSync(join(dist, '.vite'));
mkdirSync(join(dist, 'assets'));
writeFileSync(join(dist, '.vite', 'manifest.json'), JSON.stringify(manifest));
writeFileSync(join(dist, 'index.html'), html);
writeFileSync(join(dist, 'assets', 'index.css'), 'body { margin: 0 }');
for (const [file, size] of Object.entries(sizes))
  writeFileSync(join(dist, 'assets', file), randomBytes(size));

afterAll(() => rmSync(dist, { recursive: true, force: true }));

const files = (page) =>
  pageChunks(dist, manifest, html, page).map((chunk) => chunk.file.replace('assets/', ''));

function run(...args) {
  const result = spawnSync(process.execPath, [SCRIPT, '--dist', dist, ...args], {
    encoding: 'utf8',
    env: { ...process.env, BUDGET_SIGN_IN_KB: '', BUDGET_PROJECT_LIST_KB: '' },
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

describe('check-bundle-size', () => {
  it("reads index.html's module scripts and modulepreloads, not its stylesheets", () => {
    expect(htmlScripts(html)).toEqual(['assets/index.js', 'assets/react.js', 'assets/preloaded.js']);
  });

  it('follows static imports only', () => {
    expect([...staticClosure(manifest, projectList.route)].sort()).toEqual([
      'assets/dialog.js',
      'assets/projects.js',
      'assets/react.js',
    ]);
  });

  it("counts each page's entry, preloads, route chunk, catalogue parts and their imports, once each", () => {
    expect(files(signIn).sort()).toEqual(
      ['core.js', 'form.js', 'index.js', 'login.js', 'preloaded.js', 'react.js'].sort(),
    );
    expect(files(projectList).sort()).toEqual(
      ['core.js', 'dialog.js', 'index.js', 'preloaded.js', 'projects.js', 'react.js', 'rest.js'].sort(),
    );
  });

  it('gzips each file (random bytes do not shrink) and sums the page', () => {
    const chunks = pageChunks(dist, manifest, html, signIn);
    expect(chunks[0].file).toBe('assets/react.js');
    for (const chunk of chunks) expect(chunk.gzip).toBeGreaterThanOrEqual(chunk.bytes);
    const total = chunks.reduce((sum, chunk) => sum + chunk.gzip, 0);
    expect(total).toBeGreaterThan(33500);
    expect(total).toBeLessThan(35000);
    expect(checkBudgets(dist, { signIn: 35, projectList: 100 }).ok).toBe(true);
    expect(checkBudgets(dist, { signIn: 33, projectList: 100 }).ok).toBe(false);
  });

  it('passes within budget and prints the figures', () => {
    const { code, out } = run();
    expect(code).toBe(0);
    expect(out).toMatch(
      /ok {3}sign-in page \(\/login\): 3\d\.\d kB gzip of JavaScript in 6 files \(budget 170 kB\)/,
    );
    expect(out).toMatch(/ok {3}project list \(\/\): 4\d\.\d kB gzip .* \(budget 250 kB\)/);
  });

  it('fails over budget, listing the chunks of the page that is over', () => {
    const { code, out, err } = run('--sign-in', '10');
    expect(code).toBe(1);
    expect(out).toMatch(/OVER sign-in page \(\/login\): 3\d\.\d kB .* \(budget 10 kB\)/);
    expect(out).toMatch(/over by 2\d\.\d kB/);
    expect(out).toContain('assets/form.js');
    expect(out).toMatch(/ok {3}project list/);
    expect(err).toContain('JavaScript budget exceeded');
  });

  it('takes the budgets from the environment too', () => {
    const result = spawnSync(process.execPath, [SCRIPT, '--dist', dist], {
      encoding: 'utf8',
      env: { ...process.env, BUDGET_SIGN_IN_KB: '', BUDGET_PROJECT_LIST_KB: '1' },
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/OVER project list/);
  });

  it('says so when there is no build or a page is missing from it', () => {
    const missing = spawnSync(process.execPath, [SCRIPT, '--dist', join(dist, 'nothing')], {
      encoding: 'utf8',
    });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('no build to measure');
    expect(() => staticClosure(manifest, 'src/Gone.tsx')).toThrow('has no chunk "src/Gone.tsx"');
    expect(() =>
      execFileSync(process.execPath, [SCRIPT, '--dist', dist, '--sign-in', 'x'], { stdio: 'pipe' }),
    ).toThrow();
  });
});
