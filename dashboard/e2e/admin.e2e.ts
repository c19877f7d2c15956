/**
 * The administrator's screens end to end, against the real control plane and its seeded
 * library and templates: the templates screen edits, unpublishes and deletes a template (a
 * site owner stops seeing it), the theme preview shows each page of a seeded template with
 * its own records and makes a site from it, and the blocks screen lists and searches the
 * seeded library. Site owners are kept out of both screens.
 *
 * The ops screen shows the suite's own edge node (`edge-e2e`, one heartbeat a second) and
 * follows its traffic as it refreshes.
 *
 * The administrator is the one `vitrine-control seed` creates (global setup). Templates the
 * other suites use are only read here; the one edited is the administrator's own.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import {
  acceptConfirmation,
  adminCredentials,
  apiGet,
  baseURL,
  byTestId,
  createProjectViaApi,
  pathIs,
  useBrowser,
} from './support';

const session = useBrowser();
let admin: BrowserContext;
let owner: BrowserContext;
let page: Page;

interface TemplateView {
  id: number;
  name: string;
  category: string;
  is_published: '1' | '0';
}

beforeAll(async () => {
  admin = await session.signedIn(adminCredentials());
  owner = await session.registered('not-admin');
  page = await admin.newPage();
});

describe('administrator screens', () => {
  it('edit, unpublish and delete a template on /erp/templates; owners stop seeing it', async () => {
    // The administrator's own template, saved from one of their sites.
    const projectId = await createProjectViaApi(admin, 'Base do tema');
    const saved = await admin.request.post(`${baseURL}/api/templates`, {
      data: { project_id: projectId, name: 'Tema E2E', category: 'Testes' },
    });
    expect(saved.status(), await saved.text()).toBe(201);
    const template = (await saved.json()) as TemplateView;

    await page.goto('/erp/templates');
    const row = byTestId(`template-row-${template.id}`);
    await page.waitForSelector(row);
    expect(await page.textContent(`${row} ${byTestId('template-name-label')}`)).toContain('Tema E2E');

    // Edit: rename and unpublish.
    await page.click(`${row} ${byTestId('template-edit')}`);
    await page.fill(byTestId('template-name'), 'Tema E2E editado');
    await page.uncheck(byTestId('template-published'));
    await page.click(byTestId('template-form-save'));
    await page.waitForFunction(
      (selector) => document.querySelector(selector)?.textContent?.includes('Tema E2E editado'),
      `${row} ${byTestId('template-name-label')}`,
    );
    const listed = await apiGet<TemplateView[]>(admin, '/erp/templateList');
    expect(listed.find((t) => t.id === template.id)).toMatchObject({
      name: 'Tema E2E editado',
      is_published: '0',
    });
    const seen = await apiGet<TemplateView[]>(owner, '/api/templates');
    expect(seen.some((t) => t.id === template.id)).toBe(false);

    // Owners are kept out of the screen.
    const ownerPage = await owner.newPage();
    await ownerPage.goto('/erp/templates');
    await ownerPage.waitForSelector(byTestId('forbidden'));
    expect(await ownerPage.$(byTestId('template-admin'))).toBeNull();
    const refused = await owner.request.get(`${baseURL}/erp/templateList`);
    expect(refused.status()).toBe(403);
    await ownerPage.close();

    // Delete, after confirming.
    await page.click(`${row} ${byTestId('template-delete')}`);
    await acceptConfirmation(page);
    await page.waitForSelector(row, { state: 'detached' });
    const after = await apiGet<TemplateView[]>(admin, '/erp/templateList');
    expect(after.some((t) => t.id === template.id)).toBe(false);
  });

  it('previews each page of a seeded template with its own posts, and makes a site from it', async () => {
    const templates = await apiGet<TemplateView[]>(admin, '/erp/templateList');
    const blog = templates.find((t) => t.category === 'Blog');
    expect(blog).toBeDefined();
    await page.goto('/erp/templates');
    await page.click(`${byTestId(`template-row-${blog!.id}`)} ${byTestId('template-view')}`);
    await page.waitForURL(pathIs(`/template/${blog!.id}`));
    await page.waitForSelector(byTestId('template-preview-frame'));

    const frameText = async () => {
      const handle = await page.$(byTestId('template-preview-frame'));
      const frame = await handle!.contentFrame();
      await frame!.waitForLoadState();
      return frame!.textContent('body');
    };
    // The home page lists the template's posts; the collection page shows the newest one.
    await page.waitForFunction(() => {
      const frame = document.querySelector<HTMLIFrameElement>('[data-testid="template-preview-frame"]');
      return frame?.src.includes('page=%2F');
    });
    expect(await frameText()).toContain('Três dias em Tiradentes');
    await page.selectOption(byTestId('template-preview-page'), 'blog');
    await page.waitForFunction(() =>
      document
        .querySelector<HTMLIFrameElement>('[data-testid="template-preview-frame"]')
        ?.src.includes('page=blog'),
    );
    await expect.poll(frameText).toContain('Moqueca capixaba na panela de barro');
    await page.click(byTestId('template-preview-mobile'));
    expect(await page.getAttribute(byTestId('template-preview-viewport'), 'data-device')).toBe('mobile');

    await page.click(byTestId('template-use'));
    await page.fill(byTestId('use-template-name'), 'Blog do admin');
    await page.click(byTestId('use-template-submit'));
    await page.waitForURL((url) => /^\/project\/\d+$/.test(url.pathname));
    const projectId = Number(new URL(page.url()).pathname.split('/').pop());
    const project = await apiGet<{ name: string; pages: { slug: string }[] }>(
      admin,
      `/api/projects/${projectId}`,
    );
    expect(project.name).toBe('Blog do admin');
    expect(project.pages.map((p) => p.slug).sort()).toEqual(['/', 'blog', 'sobre']);
  });

  it('lists and searches the seeded block library on /erp/blocks', async () => {
    await page.goto('/erp/blocks');
    await page.waitForSelector(byTestId('block-admin'));
    const library = await apiGet<{ categories: { name: string; blocks: unknown[] }[] }>(admin, '/api/blocks');
    expect(library.categories.reduce((n, c) => n + c.blocks.length, 0)).toBeGreaterThanOrEqual(40);
    expect(await page.textContent(byTestId('block-admin'))).toContain('Hero centralizado');
    await page.fill(byTestId('block-search'), 'captura');
    await page.click(byTestId('block-search-submit'));
    await page.waitForSelector(byTestId('block-search-results'));
    await expect
      .poll(() => page.textContent(byTestId('block-search-results')))
      .toContain('Hero com captura de e-mail');
    expect(await page.textContent(byTestId('block-search-results'))).not.toContain('Hero centralizado');
  });

  it("shows the edge fleet on /erp/edges and follows the node's traffic as it refreshes", async () => {
    interface Edges {
      stale_after_seconds: number;
      nodes: { id: string; stale: boolean; requests: number; region: string }[];
    }
    const before = await apiGet<Edges>(admin, '/api/edges');
    const node = before.nodes.find((n) => n.id === 'edge-e2e');
    expect(node, JSON.stringify(before)).toBeDefined();
    expect(node?.stale).toBe(false);
    // Owners are kept out of the data.
    expect((await owner.request.get(`${baseURL}/api/edges`)).status()).toBe(403);

    await page.goto('/erp/edges');
    const row = byTestId('edge-ops-row-edge-e2e');
    await page.waitForSelector(row);
    expect(await page.getAttribute(row, 'data-stale')).toBe('false');
    expect(await page.textContent(`${row} ${byTestId('edge-ops-region')}`)).toBe('local');
    const shown = async () =>
      Number((await page.textContent(`${row} ${byTestId('edge-ops-requests')}`))?.replace(/\D/g, ''));
    const first = await shown();

    // Visitors reach the edge; the next heartbeats and the screen's refresh show them.
    const edgeURL = inject('edgeURL');
    for (let i = 0; i < 25; i++) {
      await admin.request.get(`${edgeURL}/`, { headers: { host: `nada-${i}.${inject('platformDomain')}` } });
    }
    await expect.poll(shown, { timeout: 15_000 }).toBeGreaterThanOrEqual(first + 25);
    await page.click(`${row} ${byTestId('edge-ops-select')}`);
    await page.waitForSelector(byTestId('edge-ops-detail'));
    expect(await page.textContent(byTestId('edge-ops-detail'))).toContain('edge-e2e');
  });
});
