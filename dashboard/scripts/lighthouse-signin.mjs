// Lighthouse's Performance score of the sign-in page (/login), mobile (Lighthouse's default form
// factor and simulated slow-4G throttling), asserted ≥ 95 (issue 42). Run `npm run build` first.
//
// It serves the built dashboard (dist/) from a small server of its own on 127.0.0.1 as the
// control plane does (control-plane/src/dashboard_files.rs: the build's precompressed .br or .gz
// variant the browser accepts; index.html for any other path, the SPA fallback), with a stand-in for the two API calls the
// sign-in page may make: GET /api/config (the public settings, no demo account) and GET /api/user
// (401, signed out). Then it runs Lighthouse 12.2.3 in Debian's Chromium and prints the score,
// the metrics and the audits that cost the most.
//
// Lighthouse runs through scripts/lighthouse-run.mjs (the pinned 12.2.3, installed or by npx).
//
// Usage: node scripts/lighthouse-signin.mjs [--runs N] [--min SCORE] [--no-gzip] [--keep-report]
//   --runs N        run Lighthouse N times (default 1) and judge the median score
//   --min SCORE     the least score that passes (default 95, or LIGHTHOUSE_MIN)
//   --no-gzip       serve without compression (ignore the build's .br and .gz variants)
//   --keep-report   keep the last JSON report and print where it is
// CHROME_PATH picks the browser (default /usr/bin/chromium). Exit 0 at or above the minimum,
// 1 below it, 2 when Lighthouse could not run.
import { createReadStream, existsSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { metrics, runLighthouse } from './lighthouse-run.mjs';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** The public settings a fresh platform answers with (no demo account). */
const CONFIG = {
  platform_domain: 'vitrine.test',
  preview_url_template: 'https://{slug}.vitrine.test',
  public_ip: '127.0.0.1',
  cname_target: 'edge.vitrine.test',
  demo: null,
};

function serve(dist, precompressed) {
  return createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const json = (status, body) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (url.pathname === '/api/config') return json(200, CONFIG);
    if (url.pathname === '/api/user') return json(401, { error: 'unauthorized', message: 'Unauthorized' });
    if (url.pathname.startsWith('/api/')) return json(404, { error: 'not_found', message: 'Not Found' });
    let file = join(dist, normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, ''));
    if (!file.startsWith(dist) || !existsSync(file) || statSync(file).isDirectory()) {
      file = join(dist, 'index.html');
    }
    const ext = extname(file);
    const headers = { 'content-type': TYPES[ext] ?? 'application/octet-stream' };
    // Hashed assets are immutable; index.html is asked for again each time.
    headers['cache-control'] = file.includes(`${join(dist, 'assets')}`)
      ? 'public, max-age=31536000, immutable'
      : 'no-cache';
    // The variant the build wrote (scripts/precompress.mjs) that the browser accepts, br first,
    // as the control plane's ServeDir sends it (control-plane/src/dashboard_files.rs).
    const accept = request.headers['accept-encoding'] ?? '';
    const variant = !precompressed
      ? null
      : [
          ['br', '.br'],
          ['gzip', '.gz'],
        ].find(([coding, suffix]) => new RegExp(`\\b${coding}\\b`).test(accept) && existsSync(file + suffix));
    if (variant) {
      headers['content-encoding'] = variant[0];
      headers.vary = 'Accept-Encoding';
      file += variant[1];
    }
    response.writeHead(200, headers);
    createReadStream(file).pipe(response);
  });
}

const ms = (value) => `${Math.round(value)} ms`;

function summary(report) {
  const lines = [`  ${metrics(report)}`];
  const costly = Object.values(report.audits)
    .filter((a) => a.details?.type === 'opportunity' && (a.details.overallSavingsMs ?? 0) > 0)
    .sort((a, b) => b.details.overallSavingsMs - a.details.overallSavingsMs)
    .slice(0, 5);
  for (const a of costly) lines.push(`  could save ${ms(a.details.overallSavingsMs)}: ${a.title}`);
  return lines;
}

async function main() {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '1' },
      min: { type: 'string' },
      'no-gzip': { type: 'boolean', default: false },
      'keep-report': { type: 'boolean', default: false },
    },
  });
  const runs = Number(values.runs);
  const min = Number(values.min ?? process.env.LIGHTHOUSE_MIN ?? 95);
  const dist = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
  const chrome = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  if (!existsSync(join(dist, 'index.html'))) {
    console.error(`lighthouse-signin: no build in ${dist} (run npm run build first)`);
    return 2;
  }
  if (!existsSync(chrome)) {
    console.error(`lighthouse-signin: no browser at ${chrome} (set CHROME_PATH)`);
    return 2;
  }
  const server = serve(dist, !values['no-gzip']);
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${server.address().port}/login`;
  const scores = [];
  let last;
  try {
    for (let run = 1; run <= runs; run += 1) {
      const started = Date.now();
      try {
        last = await runLighthouse(url, { categories: ['performance'], chrome });
      } catch (error) {
        console.error(`lighthouse-signin: ${error.message}`);
        return 2;
      }
      const score = Math.round(last.categories.performance.score * 100);
      scores.push(score);
      console.log(`run ${run}: Performance ${score} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
      for (const line of summary(last)) console.log(line);
    }
  } finally {
    server.close();
  }
  if (values['keep-report']) {
    const path = join(tmpdir(), 'lighthouse-signin.json');
    writeFileSync(path, JSON.stringify(last));
    console.log(`the last report is kept in ${path}`);
  }
  const median = [...scores].sort((a, b) => a - b)[Math.floor(scores.length / 2)];
  const gzip = values['no-gzip'] ? 'uncompressed' : 'precompressed';
  console.log(
    `Lighthouse ${last.lighthouseVersion}, mobile, ${gzip}, ${url}: Performance ${median} (least to pass ${min})`,
  );
  if (median < min) {
    console.error(`Performance ${median} is below ${min}: see the audits above.`);
    return 1;
  }
  return 0;
}

process.exitCode = await main();
