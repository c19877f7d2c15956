/**
 * Browser and account helpers for the end-to-end scenarios: the file's browser and its
 * contexts (`useBrowser`), accounts made or signed in through the API, JSON calls to the control
 * plane, requests to the edge for a site's host, and the page helpers the scenarios share.
 */
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { request as httpRequest } from 'node:http';
import { join, resolve } from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type ElementHandle,
  type Page,
  type Route,
} from 'playwright-core';
import { preview, type PreviewServer } from 'vite';
import { afterAll, afterEach, beforeAll, beforeEach, expect, inject } from 'vitest';
import { DEFAULT_TABLE_META } from '@/features/collections/types';

/** The control plane serving the built dashboard (global setup). */
export const baseURL = inject('baseURL');

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface Account {
  name: string;
  email: string;
  password: string;
}

export function newAccount(label: string): Account {
  const id = randomUUID().slice(0, 8);
  return {
    name: `E2E ${label} ${id}`,
    email: `e2e-${label}-${id}@example.com`,
    password: `pw-${id}-Secret!`,
  };
}

/** Registers through the API of this browser context, which then holds the session cookie. */
export async function registerViaApi(context: BrowserContext, account: Account): Promise<void> {
  const response = await context.request.post(`${baseURL}/api/register`, { data: account });
  if (response.status() !== 201)
    throw new Error(`register failed: ${response.status()} ${await response.text()}`);
}

/** Signs this browser context in through the API. */
export async function signInViaApi(
  context: BrowserContext,
  credentials: { email: string; password: string },
): Promise<void> {
  const { email, password } = credentials;
  const response = await context.request.post(`${baseURL}/api/login`, { data: { email, password } });
  if (!response.ok())
    throw new Error(`login as ${credentials.email} failed: ${response.status()} ${await response.text()}`);
}

export async function createProjectViaApi(context: BrowserContext, name: string): Promise<number> {
  const response = await context.request.post(`${baseURL}/api/projects`, { data: { name } });
  if (response.status() !== 201)
    throw new Error(`create project failed: ${response.status()} ${await response.text()}`);
  const project = (await response.json()) as { id: number };
  return project.id;
}

export const byTestId = (id: string) => `[data-testid="${id}"]`;

/** Project ids shown on the dashboard, in display order. */
export function listedProjectIds(page: Page): Promise<number[]> {
  return page.$$eval(byTestId('project-item'), (items) =>
    items.map((item) => Number(item.getAttribute('data-project-id'))),
  );
}

/** Waits until the dashboard lists exactly `count` projects. */
export async function waitForProjectCount(page: Page, count: number): Promise<void> {
  await page.waitForFunction(
    (expected) => document.querySelectorAll('[data-testid="project-item"]').length === expected,
    count,
  );
}

/** A URL predicate matching the path (and optional query) exactly. */
export function pathIs(path: string): (url: URL) => boolean {
  return (url) => url.pathname + url.search === path;
}

/**
 * Answers the kit's confirmation dialog with its action button and returns what it said (title
 * and message). The dashboard never opens the browser's own confirm box.
 */
export async function acceptConfirmation(page: Page): Promise<string> {
  const dialog = page.locator('[role="alertdialog"]');
  await dialog.waitFor();
  const text =
    (await dialog.locator('h2').textContent()) +
    ' ' +
    ((await dialog.locator('.confirm-message').textContent()) ?? '');
  await dialog.locator(byTestId('confirm-dialog-confirm')).click();
  await dialog.waitFor({ state: 'detached' });
  return text;
}

/** GET a JSON answer of the control plane as this context's account; anything but 2xx throws. */
export async function apiGet<T>(context: BrowserContext, path: string): Promise<T> {
  const response = await context.request.get(`${baseURL}${path}`);
  if (!response.ok()) throw new Error(`GET ${path}: ${response.status()} ${await response.text()}`);
  return (await response.json()) as T;
}

/** POST JSON to the control plane as this context's account; another status than `expected` (any 2xx by default) throws. */
export async function apiPost<T>(
  context: BrowserContext,
  path: string,
  data: unknown,
  expected?: number,
): Promise<T> {
  const response = await context.request.post(`${baseURL}${path}`, { data });
  if (expected === undefined ? !response.ok() : response.status() !== expected)
    throw new Error(`POST ${path}: ${response.status()} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The seeded platform administrator and business administrator (global setup). */
export const adminCredentials = () => ({ email: inject('adminEmail'), password: inject('adminPassword') });
export const businessCredentials = () => ({
  email: inject('businessEmail'),
  password: inject('businessPassword'),
});

/** The file's browser and the contexts it opens. */
export interface E2EBrowser {
  readonly browser: Browser;
  /** A new context on the dashboard, closed with the browser if the test leaves it open. */
  context(options?: BrowserContextOptions): Promise<BrowserContext>;
  /** A context holding the session of a new account, registered through the API. */
  registered(label: string, options?: BrowserContextOptions): Promise<BrowserContext>;
  /** A context signed in through the API. */
  signedIn(
    credentials: { email: string; password: string },
    options?: BrowserContextOptions,
  ): Promise<BrowserContext>;
  /**
   * A fresh context for each test of the file (opened before it, closed after it): call at the
   * file's top level, read the context inside a test.
   */
  contextPerTest(options?: BrowserContextOptions): () => BrowserContext;
}

/**
 * Launches the file's Chromium before its tests and closes it after them, with every context
 * still open. Call once at the top level of an e2e file (it registers the hooks).
 */
export function useBrowser(): E2EBrowser {
  let browser: Browser | undefined;
  const open = new Set<BrowserContext>();

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const context of open) await context.close();
    await browser?.close();
  });

  const session: E2EBrowser = {
    get browser() {
      if (!browser) throw new Error('the browser starts in beforeAll');
      return browser;
    },
    async context(options) {
      const context = await session.browser.newContext({ baseURL, ...options });
      open.add(context);
      context.on('close', () => open.delete(context));
      return context;
    },
    async registered(label, options) {
      const context = await session.context(options);
      await registerViaApi(context, newAccount(label));
      return context;
    },
    async signedIn(credentials, options) {
      const context = await session.context(options);
      await signInViaApi(context, credentials);
      return context;
    },
    contextPerTest(options) {
      let current: BrowserContext | undefined;
      beforeEach(async () => {
        current = await session.context(options);
      });
      afterEach(async () => {
        await current?.close();
        current = undefined;
      });
      return () => {
        if (!current) throw new Error('the context opens in beforeEach');
        return current;
      };
    },
  };
  return session;
}

/**
 * One request to the edge for a site's host (node:http, so the Host header is ours). A `body`
 * is sent as a posted form.
 */
export async function edgeRequest(
  siteSlug: string,
  method: 'GET' | 'POST',
  path: string,
  body?: string,
  headers?: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const res = await edgeRaw(siteSlug, method, path, body, headers);
  return { status: res.status, body: res.bytes.toString('utf8') };
}

/** [`edgeRequest`] with the answer's headers and bytes as they came (an image, say). */
export function edgeRaw(
  siteSlug: string,
  method: 'GET' | 'POST',
  path: string,
  body?: string,
  extraHeaders?: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; bytes: Buffer }> {
  const url = new URL(path, inject('edgeURL'));
  return new Promise((done, fail) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        headers: {
          ...extraHeaders,
          host: `${siteSlug}.${inject('platformDomain')}`,
          ...(body === undefined
            ? {}
            : {
                'content-type': 'application/x-www-form-urlencoded',
                'content-length': Buffer.byteLength(body),
              }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          done({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }),
        );
        res.on('error', fail);
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}

/**
 * Confirms the open Publish modal and waits for the deploy to end on the live address (a
 * Response box instead fails, with the modal's text). Returns the live address's link.
 */
export async function confirmPublish(page: Page): Promise<ElementHandle> {
  await page.waitForSelector(`${byTestId('publish-modal')}[role="dialog"]`);
  await page.click(byTestId('publish-confirm'));
  const outcome = await page.waitForSelector(`${byTestId('publish-url')}, ${byTestId('response-box')}`, {
    timeout: 45_000,
  });
  expect(
    await outcome.getAttribute('data-testid'),
    (await page.textContent(byTestId('publish-modal'))) ?? '',
  ).toBe('publish-url');
  return outcome;
}

/** A collection's meta as the collection form saves it: the form's defaults with these names. */
export const collectionMeta = (plural: string, singular: string) => ({
  ...DEFAULT_TABLE_META,
  plural,
  singular,
});

/**
 * Saves a screenshot as `{name}.png` in the folder `E2E_SCREENS` names, when it names one: what
 * a walk looked like, for a person to look at (the assertions are the test).
 */
export async function snapshot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENS;
  if (!dir) return;
  await mkdir(resolve(process.cwd(), dir), { recursive: true });
  await page.screenshot({ path: join(resolve(process.cwd(), dir), `${name}.png`) });
}

/**
 * The page editor open in `page` fits its window at the default zoom ("fit"): nothing scrolls
 * sideways (the page, the editor, the canvas stage), the top bar stays within the window, and
 * the canvas frame and the page drawn in it lie wholly in the stage's visible box, between the
 * side panels, scaled to the stage's width; the zoom menu says the percentage it shows.
 */
export async function expectCanvasFitsWindow(page: Page, windowWidth: number): Promise<void> {
  const zoom = page.locator(byTestId('scale-select'));
  expect(await zoom.inputValue()).toBe('fit');
  // The frame follows the stage's measured width (a layout effect), then stays put.
  await page.waitForFunction(() => {
    const stage = document.querySelector<HTMLElement>('[data-testid="canvas-stage"]')!;
    return stage.scrollWidth <= stage.clientWidth;
  });
  const m = await page.evaluate(() => {
    const rect = (el: Element) => el.getBoundingClientRect();
    const stage = document.querySelector<HTMLElement>('[data-testid="canvas-stage"]')!;
    const editor = document.querySelector<HTMLElement>('[data-testid="page-editor"]')!;
    const s = rect(stage);
    return {
      page: {
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
      },
      editor: { scroll: editor.scrollWidth, client: editor.clientWidth },
      stage: {
        scroll: stage.scrollWidth,
        client: stage.clientWidth,
        left: s.left,
        right: s.left + stage.clientWidth,
        top: s.top,
        bottom: s.top + stage.clientHeight,
      },
      frame: rect(document.querySelector('.canvas-frame')!).toJSON() as DOMRect,
      iframe: rect(document.querySelector('[data-testid="canvas-iframe"]')!).toJSON() as DOMRect,
      library: rect(document.querySelector('.editor-library')!).right,
      panel: rect(document.querySelector('.editor-panel')!).left,
      topbar: rect(document.querySelector('[data-testid="editor-topbar"]')!).right,
    };
  });
  const where = JSON.stringify(m);
  // Nothing scrolls sideways: not the page, not the editor, not the stage.
  expect(m.page.scroll, where).toBeLessThanOrEqual(m.page.client);
  expect(m.editor.scroll, where).toBeLessThanOrEqual(m.editor.client);
  expect(m.stage.scroll, where).toBeLessThanOrEqual(m.stage.client);
  expect(m.topbar, where).toBeLessThanOrEqual(windowWidth);
  // The frame, and the page drawn in it, are wholly in the stage's visible box, between the panels.
  for (const box of [m.frame, m.iframe]) {
    expect(box.left, where).toBeGreaterThanOrEqual(m.stage.left);
    expect(box.right, where).toBeLessThanOrEqual(m.stage.right);
    expect(box.top, where).toBeGreaterThanOrEqual(m.stage.top);
    expect(box.bottom, where).toBeLessThanOrEqual(m.stage.bottom + 0.5);
    expect(box.left, where).toBeGreaterThanOrEqual(m.library);
    expect(box.right, where).toBeLessThanOrEqual(m.panel);
  }
  // It fits the width: the 1280 px page scaled to within 2 % of the stage's width.
  expect(m.iframe.width, where).toBeGreaterThan((m.stage.right - m.stage.left - 32) * 0.98);
  const percent = Math.round((m.iframe.width / 1280) * 100);
  expect(await zoom.locator('option:checked').textContent()).toBe(`Ajustar à janela (${percent} %)`);
}

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  targets: string[];
}

/**
 * axe-core (wcag2a, wcag2aa, best-practice) on the page as the browser lays it out: each violation
 * with its impact and where (for a contrast failure, the colours measured).
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ path: axePath });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
    const results = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'best-practice'] },
      resultTypes: ['violations'],
      // The editor's canvas is the owner's own site, not the dashboard.
      iframes: false,
    });
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? null,
      help: violation.help,
      helpUrl: violation.helpUrl,
      // For a contrast failure, the colours axe measured; the element's selector otherwise.
      targets: violation.nodes.map((node) => {
        const data = node.any[0]?.data as {
          fgColor?: string;
          bgColor?: string;
          contrastRatio?: number;
        } | null;
        const where = node.target.join(' ');
        return data?.contrastRatio
          ? `${where} (${data.fgColor} on ${data.bgColor}: ${data.contrastRatio})`
          : where;
      }),
    }));
  });
}

/** The violations that fail a screen: serious and critical ones. */
export const serious = (violation: AxeViolation) =>
  violation.impact === 'serious' || violation.impact === 'critical';

/** The built dashboard served by `vite preview` and one chromium, for the checks against a fake API. */
export interface PreviewBrowser {
  /** The preview's address, ending in `/`. */
  readonly baseURL: string;
  readonly browser: Browser;
}

/**
 * Serves `dist/` with `vite preview` on a free port and launches one chromium for the file, before
 * its tests, and closes both after (called once at a file's top level). The fields are read in
 * the tests, once `beforeAll` has filled them.
 */
export function usePreview(): PreviewBrowser {
  let server: PreviewServer | undefined;
  const state = { baseURL: '', browser: undefined as unknown as Browser };
  beforeAll(async () => {
    server = await preview({ logLevel: 'silent', preview: { port: 0, host: '127.0.0.1', strictPort: true } });
    state.baseURL = server.resolvedUrls?.local[0] ?? '';
    state.browser = await launchBrowser();
  });
  afterAll(async () => {
    await state.browser?.close();
    await server?.close();
  });
  return state;
}

/** Answers a request that `page.route` caught with a JSON body (200 unless said). */
export function fulfillJson(route: Route, body: unknown, status = 200): Promise<void> {
  return route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
}

/**
 * Makes a site named `name` from the seeded bakery template (products with prices and photos)
 * for the signed-in `owner` and publishes it; its project id and preview slug.
 */
export async function publishBakery(
  owner: BrowserContext,
  name: string,
): Promise<{ id: number; slug: string }> {
  const templates = await apiGet<{ id: number; category: string }[]>(owner, '/api/templates');
  const bakery = templates.find((t) => t.category === 'Negócios');
  if (!bakery) throw new Error('the seed has no bakery template');
  const { id } = await apiPost<{ id: number }>(owner, `/api/templates/use/${bakery.id}`, { name });
  const { slug } = await apiGet<{ slug: string }>(owner, `/api/projects/${id}`);
  await apiPost(owner, `/api/publish_v2/${id}`, { project_id: id });
  return { id, slug };
}
