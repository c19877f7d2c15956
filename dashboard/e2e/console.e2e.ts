/**
 * The browser console stays clean: the anonymous screens (login, forgot, new password, the
 * notification address confirmation, the client admin panel) log no 401 for GET /api/user nor any
 * other error or warning, and a lazy screen opened first (the account page) logs no react-router
 * HydrateFallback warning.
 */
import type { Browser, BrowserContext, ConsoleMessage, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { byTestId, createProjectViaApi, launchBrowser, newAccount, registerViaApi } from './support';

const baseURL = inject('baseURL');
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  context = await browser.newContext({ baseURL });
});

afterEach(async () => {
  await context?.close();
});

/** Every error and warning the page logs (a failed request shows as an error too). */
function recordConsole(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      seen.push(`${message.type()}: ${message.text()} (${message.location().url})`);
    }
  });
  page.on('pageerror', (error) => seen.push(`pageerror: ${error.message}`));
  return seen;
}

describe('console', () => {
  it('stays clean on the anonymous screens', async () => {
    // A project token for the client panel, from another (signed-in) browser context.
    const owner = await browser.newContext({ baseURL });
    await registerViaApi(owner, baseURL, newAccount('console'));
    const projectId = await createProjectViaApi(owner, baseURL, 'Console');
    const project = (await (await owner.request.get(`${baseURL}/api/projects/${projectId}`)).json()) as {
      token: string;
    };
    await owner.close();

    const page = await context.newPage();
    const seen = recordConsole(page);
    const userRequests: number[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/api/user') userRequests.push(response.status());
    });
    const screens: [string, string][] = [
      ['/login', 'login-form'],
      ['/forgot', 'forgot-form'],
      ['/new-password?email=a%40example.com&token=abc', 'new-password-form'],
      ['/confirm-form-email?token=abc', 'confirm-form-email'],
      [`/admin?token=${encodeURIComponent(project.token)}`, 'client-home'],
    ];
    for (const [url, testId] of screens) {
      await page.goto(url);
      await page.waitForSelector(byTestId(testId));
      await page.waitForLoadState('networkidle');
    }
    expect(userRequests).toEqual([]);
    expect(seen).toEqual([]);
  });

  it('shows no HydrateFallback warning when a lazy screen is the first one opened', async () => {
    await registerViaApi(context, baseURL, newAccount('console-lazy'));
    const page = await context.newPage();
    const seen = recordConsole(page);
    await page.goto('/user');
    await page.waitForSelector(byTestId('account-name'));
    await page.waitForLoadState('networkidle');
    // The suite's control plane has no Stripe keys: its 503 for /api/stripe-config is the answer
    // the account screen turns into "card payments are not configured", not a fault.
    expect(seen.filter((line) => !line.includes('/api/stripe-config'))).toEqual([]);
  });
});
