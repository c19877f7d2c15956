/**
 * What an owner does on the go, on a phone's 390×844 screen, against the real control plane and
 * edge (global-setup.ts), all through the interface after the data is made:
 *
 * - publish the site from the project's overview (the publish dialog, to its live address);
 * - read a visitor's long form message whole: opened from the form history, every word shown,
 *   wrapped, nothing scrolled sideways;
 * - edit a record of a collection in its form and save it;
 * - the project list and the editor: the list works; the editor says it needs a larger screen.
 *
 * On every screen and dialog the page never scrolls sideways and every control the owner uses
 * lies within the screen's width.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  apiGet,
  apiPost,
  byTestId,
  confirmPublish,
  edgeRequest,
  pathIs,
  snapshot,
  useBrowser,
} from './support';

const PHONE = { width: 390, height: 844 };
const EDGE_WAIT_MS = 15_000;

interface ProjectDetail {
  id: number;
  slug: string;
  pages: { id: number; is_home: boolean }[];
  tables: { id: number; name: string }[];
}

const session = useBrowser();
let context: BrowserContext;
let page: Page;
let project: ProjectDetail;

/**
 * What sticks out sideways: the page's own overflow, and each visible control (or `within`'s
 * elements) whose box leaves the screen. Content inside a box that scrolls by itself (a wide
 * table's card) is that box's business, not the page's.
 */
async function sideways(within = 'input, select, textarea, button, a.button, label.button, [role="dialog"]') {
  return page.evaluate((selector) => {
    const width = document.documentElement.clientWidth;
    const scrolledAway = (el: Element) => {
      for (let p = el.parentElement; p; p = p.parentElement) {
        const overflow = getComputedStyle(p).overflowX;
        if ((overflow === 'auto' || overflow === 'scroll') && p.scrollWidth > p.clientWidth) return true;
      }
      return false;
    };
    const out = [...document.querySelectorAll(selector)]
      .filter((el) => {
        const box = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        if (box.width <= 1 || box.height <= 1 || style.visibility === 'hidden') return false;
        return (box.left < -0.5 || box.right > width + 0.5) && !scrolledAway(el);
      })
      .map((el) => {
        const box = el.getBoundingClientRect();
        const id = el.getAttribute('data-testid') ?? el.id ?? '';
        return `${el.tagName.toLowerCase()}${id ? `#${id}` : ''} ${Math.round(box.left)}..${Math.round(box.right)}`;
      });
    // When the page overflows, the innermost elements that reach past its edge, to say why.
    const past = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > width + 0.5)
      .filter((el) => !el.parentElement || el.parentElement.getBoundingClientRect().right <= width + 0.5)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className} "${(el.textContent ?? '').slice(0, 60)}"`);
    return { pageWidth: document.documentElement.scrollWidth, width, out, past };
  }, within);
}

async function expectFits(what: string) {
  const found = await sideways();
  expect(
    found.pageWidth,
    `${what}: the page scrolls sideways (${found.past.join('; ')})`,
  ).toBeLessThanOrEqual(found.width);
  expect(found.out, `${what}: controls off the screen`).toEqual([]);
}

beforeAll(async () => {
  context = await session.registered('phone', { viewport: PHONE, isMobile: true, hasTouch: true });
  const templates = await apiGet<{ id: number; category: string }[]>(context, '/api/templates');
  const blog = templates.find((template) => template.category === 'Blog');
  if (!blog) throw new Error('the seed has no Blog template');
  const made = await apiPost<{ id: number }>(context, `/api/templates/use/${blog.id}`, {
    name: 'Diário da Bruna',
  });
  project = await apiGet<ProjectDetail>(context, `/api/projects/${made.id}`);
  if (project.tables.length === 0) throw new Error('the Blog template made no collection');
  page = await context.newPage();
}, 60_000);

describe('an owner on a 390 px phone', () => {
  it('finds the project in the list, and is told the editor needs a larger screen', async () => {
    await page.goto('/');
    await page.waitForSelector(`${byTestId('project-item')}[data-project-id="${project.id}"]`);
    await expectFits('project list');
    const home = project.pages.find((p) => p.is_home) ?? project.pages[0];
    await page.goto(`/project/${project.id}/${home?.id}`);
    const note = page.locator(byTestId('editor-small-screen'));
    await note.waitFor();
    expect(await note.locator('h2').textContent()).toBe('O editor precisa de uma tela maior');
    await expectFits('editor notice');
    await page.click(byTestId('editor-small-screen-back'));
    await page.waitForURL(pathIs(`/project/${project.id}`));
  });

  it('publishes the site from the overview', async () => {
    await page.goto(`/project/${project.id}`);
    await page.waitForSelector(byTestId('project-overview'));
    await expectFits('project overview');
    await page.click(byTestId('project-state'));
    await page.waitForSelector(`${byTestId('publish-modal')}[role="dialog"]`);
    await expectFits('publish dialog');
    await snapshot(page, 'phone-publish');
    const live = await confirmPublish(page);
    expect(await live.getAttribute('href')).toMatch(/^https?:\/\/\S+$/);
    await snapshot(page, 'phone-published');
    await page.click(byTestId('publish-done'));
    await page.waitForSelector(`${byTestId('project-state')}:text-is("Publicado")`);
    await expectFits('project overview, published');
  });

  it('reads a long form message whole', async () => {
    const words = 'Queria encomendar um bolo de chocolate com morangos para o aniversário da minha filha';
    const message = `${Array.from({ length: 12 }, (_, i) => `${words} (${i + 1}).`).join(' ')} Obrigada!`;
    const form = new URLSearchParams({
      nome: 'Marina Albuquerque',
      email: 'marina.albuquerque.encomendas@example.com.br',
      mensagem: message,
    }).toString();
    const deadline = Date.now() + EDGE_WAIT_MS;
    let last = { status: 0, body: '' };
    while (Date.now() < deadline) {
      last = await edgeRequest(project.slug, 'POST', '/_forms', form);
      if (last.status < 400) break;
      await new Promise((done) => setTimeout(done, 250));
    }
    expect(last.status, last.body.slice(0, 300)).toBeLessThan(400);

    await page.goto(`/project/${project.id}/form-history`);
    await page.waitForSelector(byTestId('form-entry'));
    await expectFits('form history');
    await page.click(byTestId('entry-date'));
    const dialog = page.locator(byTestId('form-entry-dialog'));
    await dialog.waitFor();
    await expectFits('opened message');
    const full = dialog.locator(byTestId('form-entry-data'));
    const text = (await full.textContent()) ?? '';
    // Every word, the last one included, and nothing clipped or scrolled inside the message.
    expect(text).toContain('(12).');
    expect(text).toContain('Obrigada!');
    expect(text).toContain('marina.albuquerque.encomendas@example.com.br');
    const box = await full.evaluate((el) => ({
      scrollWidth: el.scrollWidth,
      clientWidth: el.clientWidth,
      scrollHeight: el.scrollHeight,
      clientHeight: el.clientHeight,
      overflowY: getComputedStyle(el).overflowY,
      right: el.getBoundingClientRect().right,
    }));
    expect(box.scrollWidth, JSON.stringify(box)).toBeLessThanOrEqual(box.clientWidth);
    expect(box.scrollHeight, JSON.stringify(box)).toBeLessThanOrEqual(box.clientHeight + 1);
    expect(box.right).toBeLessThanOrEqual(PHONE.width);
    // The dialog's body scrolls down to the message's end.
    await dialog.getByText('Obrigada!').scrollIntoViewIfNeeded();
    expect(await dialog.getByText('Obrigada!').isVisible()).toBe(true);
    await snapshot(page, 'phone-form-message');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('edits a record and saves it', async () => {
    const table = project.tables[0]!;
    await page.goto(`/project/${project.id}/table/${table.id}/browse`);
    await page.waitForSelector(byTestId('record-row'));
    await expectFits('records');
    const row = page.locator(byTestId('record-row')).first();
    const postId = await row.getAttribute('data-post-id');
    await row.locator(byTestId('record-edit')).click();
    await page.waitForURL(pathIs(`/project/${project.id}/table/${table.id}/browse/edit/${postId}`));
    await page.waitForSelector(byTestId('record-title'));
    await expectFits('record form');
    await snapshot(page, 'phone-record-form');
    await page.fill(byTestId('record-title'), 'Bolo de fubá da vovó');
    await page.click(byTestId('record-save'));
    await page.waitForURL(pathIs(`/project/${project.id}/table/${table.id}/browse`));
    await page.waitForSelector(`${byTestId('record-title')}:text-is("Bolo de fubá da vovó")`);
    await expectFits('records, after the edit');
  });
});
