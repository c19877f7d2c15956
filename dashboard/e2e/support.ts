/** Browser and account helpers for the end-to-end scenarios. */
import { randomUUID } from 'node:crypto';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

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
export async function registerViaApi(
  context: BrowserContext,
  baseURL: string,
  account: Account,
): Promise<void> {
  const response = await context.request.post(`${baseURL}/api/register`, { data: account });
  if (response.status() !== 201)
    throw new Error(`register failed: ${response.status()} ${await response.text()}`);
}

export async function createProjectViaApi(
  context: BrowserContext,
  baseURL: string,
  name: string,
): Promise<number> {
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
