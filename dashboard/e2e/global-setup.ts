/**
 * Starts the real control plane for the end-to-end suite: a fresh SQLite database and data
 * directory in a temporary folder, every listener on port 0, and dashboard/dist served by
 * the control plane itself. The base URL is read from the server's own start-up line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
  }
}

const dashboardDir = fileURLToPath(new URL('..', import.meta.url));
const LISTENING = /vitrine-control listening on (http:\/\/\S+)/;
const START_TIMEOUT_MS = 60_000;

function waitForListening(child: ChildProcess, log: string[]): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const failure = (reason: string) => reject(new Error(`${reason}\n--- control plane output ---\n${log.join('\n')}`));
    // A guard against a server that never prints its address, not a sleep.
    const timer = setTimeout(() => failure(`no "listening" line within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
    const onLine = (line: string) => {
      log.push(line);
      const match = LISTENING.exec(line);
      if (match?.[1]) {
        clearTimeout(timer);
        resolvePromise(match[1].replace(/\/$/, ''));
      }
    };
    if (child.stdout) createInterface({ input: child.stdout }).on('line', onLine);
    if (child.stderr) createInterface({ input: child.stderr }).on('line', (line) => log.push(line));
    child.once('error', (error) => {
      clearTimeout(timer);
      failure(`could not start the control plane: ${error.message}`);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      failure(`the control plane exited early (code ${code}, signal ${signal})`);
    });
  });
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const bin = resolve(dashboardDir, process.env.VITRINE_CONTROL_BIN ?? '../target/debug/vitrine-control');
  if (!existsSync(bin)) {
    throw new Error(`control plane binary not found at ${bin}: run "cargo build -p vitrine-control" or set VITRINE_CONTROL_BIN`);
  }
  const distDir = join(dashboardDir, 'dist');
  if (!existsSync(join(distDir, 'index.html'))) {
    throw new Error(`${distDir}/index.html missing: run "npm run build" first`);
  }

  const dataDir = await mkdtemp(join(tmpdir(), 'vitrine-e2e-'));
  const child = spawn(bin, ['serve'], {
    cwd: dataDir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      VITRINE_DATABASE_URL: `sqlite://${join(dataDir, 'e2e.db')}?mode=rwc`,
      VITRINE_DATA_DIR: dataDir,
      VITRINE_CONTROL_LISTEN: '127.0.0.1:0',
      VITRINE_EDGE_HTTP_LISTEN: '127.0.0.1:0',
      VITRINE_EDGE_HTTPS_LISTEN: '127.0.0.1:0',
      VITRINE_EDGE_ADMIN_LISTEN: '127.0.0.1:0',
      VITRINE_DASHBOARD_DIR: distDir,
    },
  });

  const log: string[] = [];
  let baseURL: string;
  try {
    baseURL = await waitForListening(child, log);
  } catch (error) {
    child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  project.provide('baseURL', baseURL);

  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  };
}
