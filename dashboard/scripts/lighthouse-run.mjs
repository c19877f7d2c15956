// Runs Lighthouse 12.2.3 once against a URL in Debian's Chromium and answers its JSON report:
// what the sign-in page's check (scripts/lighthouse-signin.mjs), the published templates' test
// (e2e/lighthouse.e2e.ts) and their benchmark (benches/lighthouse.sh) share.
//
// Lighthouse is not one of the dashboard's dependencies (its 146 packages would slow every
// `npm ci`): an installed `lighthouse` is used when there is one, and otherwise the pinned
// version through `npx --yes lighthouse@12.2.3` (npm's cache keeps it for the next run). 12.2.3
// is the last major that runs on Node 20. Its defaults are kept: the mobile form factor and
// simulated slow-4G throttling.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const LIGHTHOUSE = 'lighthouse@12.2.3';
export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The command that runs Lighthouse: the installed package's CLI, or the pinned one through npx. */
function lighthouseCommand() {
  try {
    const pkg = fileURLToPath(import.meta.resolve('lighthouse/package.json'));
    return [process.execPath, [join(dirname(pkg), 'cli', 'index.js')]];
  } catch {
    return [process.platform === 'win32' ? 'npx.cmd' : 'npx', ['--yes', LIGHTHOUSE]];
  }
}

/**
 * Audits `url` and answers the report, or throws when Lighthouse could not run (its exit status,
 * or the runtime error its report names, e.g. the page could not be loaded).
 *
 * Asynchronous on purpose: a server in the calling process must keep answering while it runs.
 * `categories` defaults to all four; `chrome` to CHROME_PATH or /usr/bin/chromium.
 */
export async function runLighthouse(url, { categories = CATEGORIES, chrome } = {}) {
  const browser = chrome ?? process.env.CHROME_PATH ?? '/usr/bin/chromium';
  if (!existsSync(browser)) throw new Error(`no browser at ${browser} (set CHROME_PATH)`);
  const out = mkdtempSync(join(tmpdir(), 'lighthouse-'));
  const path = join(out, 'report.json');
  const [command, prefix] = lighthouseCommand();
  try {
    const status = await new Promise((done) => {
      const child = spawn(
        command,
        [
          ...prefix,
          url,
          `--only-categories=${categories.join(',')}`,
          '--output=json',
          `--output-path=${path}`,
          `--chrome-flags=${CHROME_FLAGS.join(' ')}`,
          '--quiet',
        ],
        { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, CHROME_PATH: browser } },
      );
      child.on('error', () => done(-1));
      child.on('close', (code) => done(code));
    });
    if (status !== 0 || !existsSync(path)) throw new Error(`Lighthouse failed on ${url} (exit ${status})`);
    const report = JSON.parse(readFileSync(path, 'utf8'));
    if (report.runtimeError) {
      throw new Error(`Lighthouse on ${url}: ${report.runtimeError.code}: ${report.runtimeError.message}`);
    }
    return report;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Each category's score out of 100, by category id. */
export function scores(report) {
  return Object.fromEntries(
    Object.entries(report.categories).map(([id, category]) => [id, Math.round(category.score * 100)]),
  );
}

/**
 * What kept each category below 100: the scored audits of the category that did not pass
 * (`category: audit id: title (display value)`), and the first few items each names.
 */
export function failures(report) {
  const lines = [];
  for (const [id, category] of Object.entries(report.categories)) {
    for (const ref of category.auditRefs) {
      const audit = report.audits[ref.id];
      if (ref.weight === 0 || audit.score === null || audit.score >= 1) continue;
      const value = audit.displayValue ? ` (${audit.displayValue})` : '';
      lines.push(`${id}: ${ref.id}: ${audit.title}${value}`);
      // The shift's score names no element: the `layout-shifts` audit (unweighted) does.
      const items =
        ref.id === 'cumulative-layout-shift' ? report.audits['layout-shifts']?.details?.items : null;
      for (const item of (items ?? audit.details?.items ?? []).slice(0, 3)) {
        const what = item.node?.snippet ?? item.url ?? item.source?.url ?? item.description ?? '';
        const why = item.node?.explanation ?? '';
        if (what || why)
          lines.push(`    ${String(what).slice(0, 160)} ${String(why).slice(0, 200)}`.trimEnd());
      }
    }
  }
  return lines;
}

/** The page's metrics on one line. */
export function metrics(report) {
  const audit = (id) => report.audits[id]?.displayValue ?? '–';
  return (
    `FCP ${audit('first-contentful-paint')}, LCP ${audit('largest-contentful-paint')},` +
    ` TBT ${audit('total-blocking-time')}, CLS ${audit('cumulative-layout-shift')},` +
    ` Speed Index ${audit('speed-index')}`
  );
}
