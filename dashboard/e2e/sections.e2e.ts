/**
 * Shared sections end to end (issue 22, "The owner's journey"), against the real control plane
 * and the real edge: a site made from the bakery template has one shared header; the owner
 * renames the business in it once, from the editor of any page, and after a publish every page
 * on the edge shows the new name, except the page that leaves the header out; a page created
 * afterwards shows in the header's menu with no edit to it.
 */
import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiGet, apiPost, byTestId, edgeRequest, useBrowser } from './support';

interface ApiProject {
  id: number;
  slug: string;
  pages: { id: number; slug: string }[];
}

const session = useBrowser();
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  context = await session.registered('sections');
  page = await context.newPage();
});

/** The body of `path` on the published site once it contains `text` (the change feed is polled). */
async function edgeShows(slug: string, path: string, text: string): Promise<string> {
  let body = '';
  await expect
    .poll(
      async () => {
        body = (await edgeRequest(slug, 'GET', path)).body;
        return body;
      },
      { timeout: 10_000, interval: 250 },
    )
    .toContain(text);
  return body;
}

describe('shared sections', () => {
  it('renames the business once in the shared header, for every published page', async () => {
    const id = randomUUID().slice(0, 8);
    const templates = await apiGet<{ id: number; category: string }[]>(context, '/api/templates');
    const bakery = templates.find((t) => t.category === 'Negócios');
    if (!bakery) throw new Error('the seed has no business template');
    const created = await apiPost<{ id: number }>(context, `/api/templates/use/${bakery.id}`, {
      name: `Padaria ${id}`,
    });
    const project = await apiGet<ApiProject>(context, `/api/projects/${created.id}`);
    const about = project.pages.find((p) => p.slug === 'sobre');
    const contact = project.pages.find((p) => p.slug === 'contato');
    if (!about || !contact) throw new Error('the template has no about or contact page');

    // The about page's canvas shows the shared header; it is edited there.
    await page.goto(`/project/${project.id}/${about.id}`);
    const frame = await (await page.waitForSelector(byTestId('canvas-iframe'))).contentFrame();
    if (!frame) throw new Error('the canvas iframe has no frame');
    await frame.click('[data-vt-uid="global-header"]');
    await page.waitForSelector(byTestId('shared-section-note'));
    const brand = `Forno ${id}`;
    await page
      .locator(`${byTestId('var-brand')} input`)
      .first()
      .fill(brand);
    await frame.waitForFunction(
      (text) => document.querySelector('[data-vt-uid="global-header"]')?.textContent?.includes(text),
      brand,
    );
    await page.click(byTestId('save-state'));
    await page.waitForFunction(
      (selector) => document.querySelector(selector)?.getAttribute('data-state') === 'saved',
      byTestId('save-state'),
    );

    // The contact page leaves the header out; a new page is added.
    await apiPost(context, `/api/page/${contact.id}`, { meta: { hideHeader: true } });
    await apiPost(context, '/api/pages', { project_id: project.id, name: 'Encomendas' });
    await apiPost(context, `/api/publish_v2/${project.id}`, {});

    const home = await edgeShows(project.slug, '/', brand);
    expect(home).toContain('>Encomendas</a>');
    await edgeShows(project.slug, '/sobre', brand);
    await edgeShows(project.slug, '/encomendas', brand);
    const contactHtml = await edgeShows(project.slug, '/contato', '</footer>');
    expect(contactHtml).not.toContain(brand);
  });
});
