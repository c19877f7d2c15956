import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  acceptConfirmation,
  apiGet,
  byTestId,
  createProjectViaApi,
  listedProjectIds,
  newAccount,
  pathIs,
  registerViaApi,
  useBrowser,
  waitForProjectCount,
} from './support';

const session = useBrowser();
/** Each test starts signed out, in a context of its own. */
const context = session.contextPerTest();

describe('dashboard end to end', () => {
  it('registers, creates, edits, duplicates a project and deletes the copy', async () => {
    const page = await context().newPage();
    const account = newAccount('owner');
    const suffix = randomUUID().slice(0, 8);

    await page.goto('/login');
    await page.fill('#register-name', account.name);
    await page.fill('#register-email', account.email);
    await page.fill('#register-password', account.password);
    await page.click(byTestId('register-submit'));
    await page.waitForURL(pathIs('/'));
    expect(await page.textContent(byTestId('header-email'))).toBe(account.email);

    await page.click(byTestId('new-project-link'));
    await page.waitForURL(pathIs('/project/new'));
    await page.fill(byTestId('project-name-input'), 'E2E Site');
    await page.click(byTestId('create-project-submit'));
    await page.waitForURL((url) => /^\/project\/\d+$/.test(url.pathname));
    const projectId = Number(new URL(page.url()).pathname.split('/')[2]);
    await page.waitForSelector(byTestId('project-overview'));
    expect(await page.textContent(byTestId('project-title'))).toBe('E2E Site');

    // "Editar projeto" opens the home page in the editor; the settings have their own name.
    expect(await page.getAttribute(byTestId('edit-project-link'), 'href')).toMatch(
      new RegExp(`^/project/${projectId}/\\d+$`),
    );
    expect(await page.textContent(byTestId('settings-link'))).toBe('Configurações do projeto');
    await page.click(byTestId('settings-link'));
    await page.waitForURL(pathIs(`/project/${projectId}/edit`));
    await page.fill(byTestId('settings-name'), 'E2E Site Renamed');
    await page.fill(byTestId('settings-slug'), `e2e-site-${suffix}`);
    await page.fill(byTestId('settings-description'), 'Made by the end-to-end suite');
    await page.click(byTestId('settings-save'));
    await page.waitForURL(pathIs(`/project/${projectId}`));
    await page.waitForSelector(`${byTestId('project-title')}:text-is("E2E Site Renamed")`);

    // Saved on the server, not only in the cache.
    await page.reload();
    await page.waitForSelector(`${byTestId('project-title')}:text-is("E2E Site Renamed")`);
    expect(await page.textContent(byTestId('project-slug'))).toBe(`e2e-site-${suffix}`);
    expect(await page.textContent(byTestId('project-description'))).toBe('Made by the end-to-end suite');

    // "+ Nova página": a dialog with the name, the slug filled in from it (and editable), the type.
    await page.click(byTestId('new-page'));
    const dialog = page.locator('[role="dialog"]');
    await dialog.waitFor();
    await page.keyboard.type('Nossos Serviços');
    expect(await dialog.locator(byTestId('new-page-slug')).inputValue()).toBe('nossos-servicos');
    await dialog.locator(byTestId('new-page-slug')).fill('servicos');
    await dialog.locator(byTestId('new-page-create')).click();
    await page.waitForURL((url) => new RegExp(`^/project/${projectId}/\\d+$`).test(url.pathname));
    const pageId = Number(new URL(page.url()).pathname.split('/')[3]);
    const created = await page.request.get(`/api/project/${projectId}/page/${pageId}`);
    expect(await created.json()).toMatchObject({ name: 'Nossos Serviços', slug: 'servicos', table_id: null });

    await page.goto('/');
    await waitForProjectCount(page, 1);
    const original = page.locator(`${byTestId('project-item')}[data-project-id="${projectId}"]`);
    // The kit's menu button: opened from the keyboard, its item chosen with Enter.
    await original.locator(byTestId('duplicate-toggle')).focus();
    await page.keyboard.press('ArrowDown');
    await page.waitForSelector(`[role="menu"] ${byTestId('duplicate-action')}`);
    await page.keyboard.press('Enter');
    await waitForProjectCount(page, 2);

    const copyId = (await listedProjectIds(page)).find((id) => id !== projectId);
    expect(copyId).toBeDefined();
    await page
      .locator(`${byTestId('project-item')}[data-project-id="${copyId}"] ${byTestId('manage-link')}`)
      .click();
    await page.waitForURL(pathIs(`/project/${copyId}`));
    await page.waitForSelector(byTestId('project-overview'));

    await page.click(byTestId('delete-project'));
    expect(await acceptConfirmation(page)).toContain('Excluir o projeto "');
    await page.waitForURL(pathIs('/'));
    await waitForProjectCount(page, 1);
    expect(await listedProjectIds(page)).toEqual([projectId]);
  });

  it('keeps the intended URL across login', async () => {
    const account = newAccount('returning');
    const setup = await session.context();
    await registerViaApi(setup, account);
    await setup.close();

    const page = await context().newPage();
    await page.goto('/project/new');
    await page.waitForURL(pathIs('/login'));
    await page.fill('#login-email', account.email);
    await page.fill('#login-password', account.password);
    await page.click(byTestId('login-submit'));
    await page.waitForURL(pathIs('/project/new'));
    await page.waitForSelector(byTestId('new-project-form'));
  });

  it("sends another user's project back to the dashboard with an error toast", async () => {
    const ownerContext = await session.context();
    await registerViaApi(ownerContext, newAccount('alice'));
    const projectId = await createProjectViaApi(ownerContext, 'Private site');
    await ownerContext.close();

    await registerViaApi(context(), newAccount('bob'));
    const page = await context().newPage();
    await page.goto(`/project/${projectId}`);
    await page.waitForSelector(byTestId('toast-error'));
    await page.waitForURL(pathIs('/'));
    await page.waitForSelector(`${byTestId('projects-empty')}, ${byTestId('project-list')}`);
    expect(await page.$(byTestId('project-overview'))).toBeNull();
  });

  it.each<[string, string]>([
    ['pt-BR', 'slug já está em uso'],
    ['en', 'slug already in use'],
  ])("shows the server's refusal in the interface's language (%s), at its field", async (language, text) => {
    await context().addInitScript(
      ([key, value]: [string, string]) => window.localStorage.setItem(key, value),
      ['vitrine.language', language] as [string, string],
    );
    await registerViaApi(context(), newAccount(`slugs-${language}`));
    const first = await createProjectViaApi(context(), 'First site');
    const second = await createProjectViaApi(context(), 'Second site');
    const { slug } = await apiGet<{ slug: string }>(context(), `/api/projects/${first}`);

    const page = await context().newPage();
    await page.goto(`/project/${second}/edit`);
    await page.fill(byTestId('settings-slug'), slug);
    await page.click(byTestId('settings-save'));
    // The server's 409 `slug_taken`, translated by its code, beside the slug and linked to it.
    const slugInput = page.locator(byTestId('settings-slug'));
    await page.waitForSelector(`${byTestId('settings-slug')}[aria-invalid="true"]`);
    const describedBy = (await slugInput.getAttribute('aria-describedby')) ?? '';
    const messages = await Promise.all(
      describedBy
        .split(' ')
        .filter(Boolean)
        .map((id) => page.locator(`[id="${id}"]`).textContent()),
    );
    expect(messages.join(' ')).toContain(text);
  });
});
