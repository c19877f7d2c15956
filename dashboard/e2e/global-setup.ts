/**
 * Starts the real control plane and the edge for the end-to-end suite: a fresh SQLite database
 * and data directory in a temporary folder, seeded first (`vitrine-control seed`: the block
 * library and the templates), every listener on port 0, and dashboard/dist served by the
 * control plane itself. Both processes share the database, the data directory and the platform
 * domain, so a publish through the control plane reaches the edge through its change feed.
 * The base URL and the edge's address are read from the servers' own start-up lines.
 *
 * Fonts come from a fake provider on loopback (FONTS_URL, hence FETCH_ALLOW_PRIVATE for the
 * control plane's fetches): it serves two families, each as a latin subset of a DejaVu face
 * (e2e/fixtures/fonts, about 20 KB each, as a provider's latin files are): `Lora` as DejaVu Sans
 * Mono, whose glyphs no serif fallback shares, so a test can tell the font loaded; and
 * `Open Sans`, the dashboard's default font and the bakery template's, as DejaVu Sans, so a new
 * owner's site publishes and looks as it would online (whole system fonts, 700 KB a face, made
 * Lighthouse's simulated slow 4G wait seconds for them). Every other family is a font that
 * cannot be fetched. See e2e/canvas-fonts.e2e.ts.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    /** The edge's visitor address (http://127.0.0.1:PORT); sites answer at {slug}.{platformDomain}. */
    edgeURL: string;
    platformDomain: string;
    /** The administrator the seed creates. */
    adminEmail: string;
    adminPassword: string;
    /** An account that administers a business (agency plan), made with `vitrine-control business`. */
    businessEmail: string;
    businessPassword: string;
    /** The fake font provider's base URL (FONTS_URL): it serves `Lora` and `Open Sans` only. */
    fontsURL: string;
  }
}

const ADMIN_EMAIL = 'e2e-admin@example.com';
const BUSINESS_EMAIL = 'e2e-business-admin@example.com';
const dashboardDir = fileURLToPath(new URL('..', import.meta.url));
const CONTROL_LISTENING = /vitrine-control listening on (http:\/\/\S+)/;
const EDGE_LISTENING = /vitrine-edge listening on (http:\/\/\S+) \(admin/;
/** Preview sites answer at {slug}.PLATFORM_DOMAIN; the tests send that Host to the edge. */
const PLATFORM_DOMAIN = 'e2e.localhost';
const START_TIMEOUT_MS = 60_000;

function waitForListening(
  child: ChildProcess,
  log: string[],
  what: string,
  listening: RegExp,
): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const failure = (reason: string) =>
      reject(new Error(`${reason}\n--- ${what} output ---\n${log.join('\n')}`));
    // A guard against a server that never prints its address, not a sleep.
    const timer = setTimeout(
      () => failure(`no "listening" line within ${START_TIMEOUT_MS} ms`),
      START_TIMEOUT_MS,
    );
    const onLine = (line: string) => {
      log.push(line);
      const match = listening.exec(line);
      if (match?.[1]) {
        clearTimeout(timer);
        resolvePromise(match[1].replace(/\/$/, ''));
      }
    };
    if (child.stdout) createInterface({ input: child.stdout }).on('line', onLine);
    if (child.stderr) createInterface({ input: child.stderr }).on('line', (line) => log.push(line));
    child.once('error', (error) => {
      clearTimeout(timer);
      failure(`could not start the ${what}: ${error.message}`);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      failure(`the ${what} exited early (code ${code}, signal ${signal})`);
    });
  });
}

const FONTS = join(dashboardDir, 'e2e', 'fixtures', 'fonts');

/**
 * What the fake provider serves for each family it has (see the module's doc): every Lora face
 * is DejaVu Sans Mono, whose glyphs no serif fallback shares; Open Sans is DejaVu Sans, a
 * humanist sans like it, bold from weight 600. Latin subsets in WOFF2 (e2e/fixtures/README.md).
 */
const SERVED_FONTS = {
  lora: { regular: `${FONTS}/dejavu-sans-mono.latin.woff2`, bold: `${FONTS}/dejavu-sans-mono.latin.woff2` },
  'open-sans': { regular: `${FONTS}/dejavu-sans.latin.woff2`, bold: `${FONTS}/dejavu-sans-bold.latin.woff2` },
};

/**
 * The fake Fontsource-layout provider: `/{lora,open-sans}/latin-{weight}-{style}.woff2` answer
 * the family's file, with the CORS header fonts need (the canvas loads them from an opaque
 * origin); anything else is a 404.
 */
async function fontProvider(): Promise<{ server: Server; url: string }> {
  const files = new Map<string, Buffer>();
  for (const [family, faces] of Object.entries(SERVED_FONTS)) {
    files.set(`${family}/regular`, await readFile(faces.regular));
    files.set(`${family}/bold`, await readFile(faces.bold));
  }
  const server = createServer((req, res) => {
    const face = /^\/(lora|open-sans)\/latin-([1-9])00-(normal|italic)\.woff2$/.exec(req.url ?? '');
    const font = face && files.get(`${face[1]}/${Number(face[2]) >= 6 ? 'bold' : 'regular'}`);
    res.writeHead(font ? 200 : 404, {
      'content-type': font ? 'font/woff2' : 'text/plain',
      'access-control-allow-origin': '*',
    });
    res.end(font ?? 'not found');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Runs `bin args` to completion (the seed), failing with its output when it fails. */
function runToEnd(bin: string, args: string[], options: SpawnOptions, what: string): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(bin, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    const output: string[] = [];
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.once('error', (error) => reject(new Error(`could not run ${what}: ${error.message}`)));
    child.once('exit', (code, signal) => {
      if (code === 0) resolvePromise();
      else reject(new Error(`${what} failed (code ${code}, signal ${signal})\n${output.join('')}`));
    });
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  await exited;
}

function binary(variable: string, fallback: string, build: string): string {
  const bin = resolve(dashboardDir, process.env[variable] ?? fallback);
  if (!existsSync(bin)) throw new Error(`binary not found at ${bin}: run "${build}" or set ${variable}`);
  return bin;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const controlBin = binary(
    'VITRINE_CONTROL_BIN',
    '../target/debug/vitrine-control',
    'cargo build -p vitrine-control-plane --bin vitrine-control',
  );
  const edgeBin = binary(
    'VITRINE_EDGE_BIN',
    '../target/debug/vitrine-edge',
    'cargo build -p vitrine-edge --bin vitrine-edge',
  );
  const distDir = join(dashboardDir, 'dist');
  if (!existsSync(join(distDir, 'index.html'))) {
    throw new Error(`${distDir}/index.html missing: run "npm run build" first`);
  }

  const adminPassword = `e2e-admin-${process.pid}`;
  const fonts = await fontProvider();
  const dataDir = await mkdtemp(join(tmpdir(), 'vitrine-e2e-'));
  const options: SpawnOptions = {
    cwd: dataDir,
    env: {
      ...process.env,
      VITRINE_DATABASE_URL: `sqlite://${join(dataDir, 'e2e.db')}?mode=rwc`,
      VITRINE_DATA_DIR: dataDir,
      VITRINE_PLATFORM_DOMAIN: PLATFORM_DOMAIN,
      VITRINE_CONTROL_LISTEN: '127.0.0.1:0',
      VITRINE_CONTROL_ADMIN_LISTEN: '127.0.0.1:0',
      VITRINE_EDGE_HTTP_LISTEN: '127.0.0.1:0',
      VITRINE_EDGE_HTTPS_LISTEN: '127.0.0.1:0',
      VITRINE_EDGE_ADMIN_LISTEN: '127.0.0.1:0',
      // The ops screen's test waits for heartbeats; one a second keeps it short.
      VITRINE_EDGE_NODE_ID: 'edge-e2e',
      VITRINE_EDGE_HEARTBEAT_SECS: '1',
      // Visits reach the analytics screen within a second (the product's default is a minute).
      VITRINE_ANALYTICS_FLUSH_MS: '500',
      VITRINE_DASHBOARD_DIR: distDir,
      // The seed creates an administrator; a fixed password keeps it from printing a random one.
      VITRINE_ADMIN_EMAIL: ADMIN_EMAIL,
      VITRINE_ADMIN_PASSWORD: adminPassword,
      VITRINE_FONTS_URL: fonts.url,
      VITRINE_FETCH_ALLOW_PRIVATE: 'true',
    },
  };
  const children: ChildProcess[] = [];
  const cleanUp = async () => {
    for (const child of children) await stop(child);
    await new Promise((done) => fonts.server.close(done));
    await rm(dataDir, { recursive: true, force: true });
  };

  let baseURL: string;
  let edgeURL: string;
  try {
    // The library blocks the editor inserts (61) and the templates; `seed` migrates first.
    await runToEnd(controlBin, ['seed'], options, 'vitrine-control seed');
    const edge = spawn(edgeBin, ['serve'], { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(edge);
    edgeURL = await waitForListening(edge, [], 'edge', EDGE_LISTENING);
    // The edge listens first, so the preview address the control plane shows is the real one.
    const previewTemplate = `http://{slug}.${PLATFORM_DOMAIN}:${new URL(edgeURL).port}`;
    const control = spawn(controlBin, ['serve'], {
      ...options,
      env: { ...options.env, VITRINE_PREVIEW_URL_TEMPLATE: previewTemplate },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(control);
    baseURL = await waitForListening(control, [], 'control plane', CONTROL_LISTENING);
    // A business administrator: an account registered like any other, then given a business.
    const registered = await fetch(`${baseURL}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Agência E2E', email: BUSINESS_EMAIL, password: adminPassword }),
    });
    if (registered.status !== 201)
      throw new Error(`registering the business admin: ${registered.status} ${await registered.text()}`);
    await runToEnd(
      controlBin,
      ['business', '--email', BUSINESS_EMAIL, '--name', 'Agência E2E', '--plan', 'agency'],
      options,
      'vitrine-control business',
    );
  } catch (error) {
    for (const child of children) child.kill('SIGKILL');
    fonts.server.close();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  project.provide('baseURL', baseURL);
  project.provide('edgeURL', edgeURL);
  project.provide('platformDomain', PLATFORM_DOMAIN);
  project.provide('adminEmail', ADMIN_EMAIL);
  project.provide('adminPassword', adminPassword);
  project.provide('businessEmail', BUSINESS_EMAIL);
  project.provide('businessPassword', adminPassword);
  project.provide('fontsURL', fonts.url);

  return cleanUp;
}
