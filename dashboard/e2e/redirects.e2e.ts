/**
 * Redirects and form history end to end, against the real control plane: the overview's links,
 * the redirect form's live validation, the '*' warning, a duplicate origin's 'Erro' toast, search,
 * edit and delete; the form history's empty list and its order setting.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  acceptConfirmation,
  baseURL,
  byTestId,
  createProjectViaApi,
  pathIs,
  snapshot,
  useBrowser,
} from './support';

const session = useBrowser();
let context: BrowserContext;
let page: Page;
let projectId: number;

beforeAll(async () => {
  context = await session.registered('redirects');
  projectId = await createProjectViaApi(context, 'Redirect site');
  page = await context.newPage();
});

async function rowOrigins(): Promise<string[]> {
  return page.$$eval(byTestId('redirect-from'), (cells) => cells.map((cell) => cell.textContent ?? ''));
}

async function waitForRows(count: number): Promise<void> {
  await page.waitForFunction(
    (expected) => document.querySelectorAll('[data-testid="redirect-row"]').length === expected,
    count,
  );
}

async function fillRule(from: string, to: string): Promise<void> {
  await page.fill(byTestId('redirect-from-input'), from);
  await page.fill(byTestId('redirect-to-input'), to);
}

describe('redirects', () => {
  it('are created, validated, searched, edited and deleted from the project overview', async () => {
    await page.goto(`/project/${projectId}`);
    expect(await page.$(byTestId('form-history-link'))).toBeNull();
    await page.click(byTestId('redirects-link'));
    await page.waitForURL(pathIs(`/project/${projectId}/redirects`));
    await page.waitForSelector(byTestId('redirects-empty'));

    await page.click(byTestId('new-redirect'));
    await page.waitForURL(pathIs(`/project/${projectId}/redirects/new`));
    await fillRule('/a b', '/novo');
    await page.waitForSelector('text=A url não pode ter espaços.');
    expect(await page.isDisabled(byTestId('redirect-save'))).toBe(true);
    await fillRule('antigo/', '/novo');
    expect(await page.isEnabled(byTestId('redirect-save'))).toBe(true);
    await page.click(byTestId('redirect-save'));
    await page.waitForURL(pathIs(`/project/${projectId}/redirects`));
    await waitForRows(1);
    expect(await rowOrigins()).toEqual(['/antigo']);

    // The whole-site rule warns before it is saved.
    await page.click(byTestId('new-redirect'));
    await fillRule('*', 'https://novo.example.com/*');
    expect(await page.textContent(byTestId('redirect-warning'))).toBe(
      'Atenção: a url * redireciona o site inteiro.',
    );
    await page.click(byTestId('redirect-save'));
    await waitForRows(2);

    // A second rule for the same origin: the server's text in an 'Erro' toast, the form stays.
    await page.click(byTestId('new-redirect'));
    await fillRule('/antigo', '/outro');
    await page.click(byTestId('redirect-save'));
    const toast = await page.waitForSelector(byTestId('toast-error'));
    expect(await toast.textContent()).toContain(
      'Erro: Já existe um redirecionamento para esta url de origem.',
    );
    expect(await page.$(byTestId('redirect-form'))).not.toBeNull();
    await page.keyboard.press('Escape');
    await page.waitForURL(pathIs(`/project/${projectId}/redirects`));

    await page.fill(byTestId('redirect-search'), 'NOVO.example');
    await page.click(byTestId('redirect-search-submit'));
    await page.waitForURL(pathIs(`/project/${projectId}/redirects?term=NOVO.example`));
    await waitForRows(1);
    expect(await rowOrigins()).toEqual(['*']);
    await page.fill(byTestId('redirect-search'), '');
    await page.click(byTestId('redirect-search-submit'));
    await waitForRows(2);

    await page.selectOption(byTestId('redirect-order'), 'from');
    await page.waitForURL(pathIs(`/project/${projectId}/redirects?order=from`));
    await page.waitForFunction(
      () => document.querySelector('[data-testid="redirect-from"]')?.textContent === '*',
    );
    expect(await rowOrigins()).toEqual(['*', '/antigo']);

    // Edit keeps the list's query when it closes.
    await page.click(`${byTestId('redirect-row')}:has-text("/antigo") ${byTestId('redirect-edit')}`);
    // The form fills its fields through react-hook-form (the value property, not the attribute).
    await page.waitForFunction(
      () =>
        document.querySelector<HTMLInputElement>('[data-testid="redirect-from-input"]')?.value === '/antigo',
    );
    await fillRule('/velho', '/novo');
    await page.click(byTestId('redirect-save'));
    await page.waitForURL(pathIs(`/project/${projectId}/redirects?order=from`));
    await page.waitForSelector(`${byTestId('redirect-from')}:has-text("/velho")`);

    await page.click(`${byTestId('redirect-row')}:has-text("/velho") ${byTestId('redirect-delete')}`);
    expect(await acceptConfirmation(page)).toBe(
      'Excluir o redirecionamento de /velho? Esta ação não pode ser desfeita.',
    );
    await waitForRows(1);
    expect(await rowOrigins()).toEqual(['*']);
  });
});

describe('the redirect limit', () => {
  it('tells the owner, in the form, how many a site may have and what to do', async () => {
    const limited = await createProjectViaApi(context, 'Redirect limit');
    // 2,000 rules (shared::redirects::MAX_RULES) through the API, 25 at a time.
    const max = 2000;
    for (let start = 0; start < max; start += 25) {
      const batch = Array.from({ length: Math.min(25, max - start) }, (_, i) =>
        context.request.post(`${baseURL}/api/redirects`, {
          data: { project_id: limited, from: `/velho-${start + i}`, to: '/' },
        }),
      );
      for (const res of await Promise.all(batch)) expect(res.status(), await res.text()).toBe(201);
    }
    await page.goto(`/project/${limited}/redirects/new`);
    await fillRule('/mais-um', '/novo');
    await page.click(byTestId('redirect-save'));
    const toast = await page.waitForSelector(byTestId('toast-error'));
    expect(await toast.textContent()).toContain(
      'Erro: Um site pode ter no máximo 2000 redirecionamentos. Exclua alguns antes de adicionar outros.',
    );
    // The form stays with what was typed, so nothing is lost while the owner makes room.
    expect(await page.inputValue(byTestId('redirect-from-input'))).toBe('/mais-um');
    await snapshot(page, 'redirect-limit');
  });
});

describe('form history', () => {
  it('is linked once the project has a domain and remembers the chosen order', async () => {
    const response = await context.request.post(`${baseURL}/api/projects/${projectId}`, {
      data: { domain: `e2e-${projectId}.example.com` },
    });
    expect(response.status()).toBe(200);
    await page.goto(`/project/${projectId}`);
    await page.click(byTestId('form-history-link'));
    await page.waitForURL(pathIs(`/project/${projectId}/form-history`));
    await page.waitForSelector(byTestId('form-history-empty'));
    // Bulk delete lives in the selection bar, shown only while entries are chosen.
    expect(await page.locator(byTestId('form-history-delete')).count()).toBe(0);

    await page.click(byTestId('form-history-settings-open'));
    expect(await page.inputValue(byTestId('form-history-order'))).toBe('-created_at');
    await page.selectOption(byTestId('form-history-order'), 'created_at');
    await page.click(byTestId('form-history-settings-save'));
    await page.waitForSelector(byTestId('toast-success'));
    await page.waitForSelector(byTestId('form-history-settings'), { state: 'detached' });

    const project = (await (await context.request.get(`${baseURL}/api/projects/${projectId}`)).json()) as {
      meta: { formHistoryOrderBy?: string };
    };
    expect(project.meta.formHistoryOrderBy).toBe('created_at');
  });
});
