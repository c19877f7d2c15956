/**
 * The browser console stays clean: the anonymous screens (login, forgot, new password, the
 * notification address confirmation, the client admin panel) log no 401 for GET /api/user nor any
 * other error or warning, and a lazy screen opened first (the account page) logs no react-router
 * HydrateFallback warning.
 */
import type { ConsoleMessage, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiGet, byTestId, createProjectViaApi, newAccount, registerViaApi, useBrowser } from './support';

const session = useBrowser();
/** Each test starts signed out, in a context of its own. */
const context = session.contextPerTest();

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
    const owner = await session.registered('console');
    const projectId = await createProjectViaApi(owner, 'Console');
    const project = await apiGet<{ token: string }>(owner, `/api/projects/${projectId}`);
    await owner.close();

    const page = await context().newPage();
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
      ['/confirm-email?token=abc', 'confirm-email'],
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
    await registerViaApi(context(), newAccount('console-lazy'));
    const page = await context().newPage();
    const seen = recordConsole(page);
    await page.goto('/user');
    await page.waitForSelector(byTestId('account-name'));
    await page.waitForLoadState('networkidle');
    // The suite's control plane has no Stripe keys: its 503 for /api/stripe-config is the answer
    // the account screen turns into "card payments are not configured", not a fault.
    expect(seen.filter((line) => !line.includes('/api/stripe-config'))).toEqual([]);
  });
});
