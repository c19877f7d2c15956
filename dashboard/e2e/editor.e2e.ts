/**
 * The page editor end to end, against the real control plane and the real edge (both started
 * by global-setup.ts on one seeded database):
 *
 * - a page built from three library blocks, a text and an image field edited, undo and redo,
 *   autosave left to run on its own, published with Deploy, and the edit fetched from the edge;
 * - a collection page (table_id) with a library block from the collection-item category, whose
 *   variables are bound to the post's fields: published, each post is at /{page}/{post} on the
 *   edge with its own name.
 *
 * The edge serves a site at {slug}.{platformDomain}; requests carry that Host. A publish reaches
 * the edge through its change feed, so the edge is polled (bounded) until the page shows it.
 */
import { randomUUID } from 'node:crypto';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import {
  apiGet,
  apiPost,
  baseURL,
  byTestId,
  collectionMeta,
  confirmPublish,
  createProjectViaApi,
  edgeRequest,
  useBrowser,
} from './support';

const edgeURL = inject('edgeURL');
const platformDomain = inject('platformDomain');

/** How long a publish may take to reach the edge through its change feed. */
const EDGE_WAIT_MS = 10_000;

interface ApiProject {
  id: number;
  slug: string;
  pages: { id: number; slug: string }[];
}
interface ApiPage {
  id: number;
  slug: string;
  table_id: number | null;
  output: string;
  blocks: { uid: string; name: string; vars?: { name: string; value: unknown; postfield?: string }[] }[];
}
interface LibraryBlock {
  id: number;
  uid: string;
  name: string;
}
interface Library {
  categories: { id: number; name: string; blocks: LibraryBlock[] }[];
}

const session = useBrowser();
let context: BrowserContext;
let page: Page;
let library: Library;

/**
 * Polls the edge until `path` answers 200 with a body containing `text`, for at most
 * EDGE_WAIT_MS; returns the body. Fails with the last answer otherwise.
 */
async function waitForEdge(siteSlug: string, path: string, text: string): Promise<string> {
  const deadline = Date.now() + EDGE_WAIT_MS;
  let last = { status: 0, body: '' };
  while (Date.now() < deadline) {
    last = await edgeRequest(siteSlug, 'GET', path);
    if (last.status === 200 && last.body.includes(text)) return last.body;
    // The change feed is read every 250 ms; ask again after one period, not a fixed sleep for the answer.
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(
    `the edge never served "${text}" at ${siteSlug}.${platformDomain}${path} within ${EDGE_WAIT_MS} ms; last answer ${last.status}:\n${last.body.slice(0, 2000)}`,
  );
}

/** Decodes the character references an HTML attribute value may hold. */
function decodeAttribute(value: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#')
      return String.fromCodePoint(
        ref[1]?.toLowerCase() === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10),
      );
    return named[ref.toLowerCase()] ?? whole;
  });
}

/** The decoded values of `attribute` on every `<tag …>` of an HTML document. */
function attributeValues(html: string, tag: string, attribute: string): string[] {
  const values: string[] = [];
  for (const [element] of html.matchAll(new RegExp(`<${tag}\\b[^>]*>`, 'gi'))) {
    const match = new RegExp(`\\s${attribute}="([^"]*)"`, 'i').exec(element);
    if (match?.[1] !== undefined) values.push(decodeAttribute(match[1]));
  }
  return values;
}

function libraryBlock(uid: string): LibraryBlock {
  const block = library.categories.flatMap((category) => category.blocks).find((b) => b.uid === uid);
  if (!block) throw new Error(`library block ${uid} not seeded`);
  return block;
}

function categoryOf(uid: string): string {
  const category = library.categories.find((c) => c.blocks.some((b) => b.uid === uid));
  if (!category) throw new Error(`no category holds ${uid}`);
  return category.name;
}

async function openEditor(projectId: number, pageId: number): Promise<Frame> {
  const response = await page.goto(`/project/${projectId}/${pageId}`);
  // The SPA fallback answers this deep route with the headers that keep other pages from
  // framing the dashboard; the canvas below must work under that policy, which it inherits.
  const headers = response?.headers() ?? {};
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['x-frame-options']).toBe('DENY');
  await page.waitForSelector(byTestId('page-editor'));
  const frame = await (await page.waitForSelector(byTestId('canvas-iframe'))).contentFrame();
  if (!frame) throw new Error('the canvas iframe has no frame');
  return frame;
}

const canvasUids = (frame: Frame) =>
  frame.$$eval('[data-vt-uid]', (els) => els.map((el) => el.getAttribute('data-vt-uid') ?? ''));

async function waitForCanvasBlocks(frame: Frame, count: number): Promise<string[]> {
  await frame.waitForFunction((n) => document.querySelectorAll('[data-vt-uid]').length === n, count);
  return canvasUids(frame);
}

/** Waits for the top bar's "Salvo HH:MM:SS": a save that happened in this session. */
async function waitForSaved(timeout: number): Promise<void> {
  await page.waitForFunction(
    (selector) => {
      const button = document.querySelector(selector);
      return (
        button?.getAttribute('data-state') === 'saved' &&
        /^Salvo \d\d:\d\d:\d\d$/.test(button.textContent ?? '')
      );
    },
    byTestId('save-state'),
    { timeout },
  );
}

beforeAll(async () => {
  context = await session.registered('editor');
  library = await apiGet<Library>(context, '/api/blocks');
  page = await context.newPage();
});

describe('page editor', () => {
  it('builds a page from three blocks, edits text and image, undoes and redoes, autosaves, publishes, and the edge serves the edit', async () => {
    const id = randomUUID().slice(0, 8);
    const projectId = await createProjectViaApi(context, `Editor ${id}`);
    const project = await apiGet<ApiProject>(context, `/api/projects/${projectId}`);
    const home = project.pages[0];
    if (!home) throw new Error('a new project has a home page');

    const frame = await openEditor(projectId, home.id);
    expect(await page.getAttribute(byTestId('save-state'), 'data-state')).toBe('saved');

    // Three blocks from the Elements category (open by default): title, paragraph, image.
    const blocks = ['elements/00-titulo', 'elements/01-paragrafo', 'elements/03-imagem'].map(libraryBlock);
    for (const [index, block] of blocks.entries()) {
      await page.click(
        `${byTestId('category-elements')} ${byTestId('library-block')}[data-block-id="${block.id}"] ${byTestId('library-add')}`,
      );
      await waitForCanvasBlocks(frame, index + 1);
    }
    const uids = await canvasUids(frame);
    expect(uids).toHaveLength(3);
    expect(await frame.textContent(`[data-vt-uid="${uids[0]}"] h2`)).toBe('Um título claro para esta seção');
    expect(await page.getAttribute(byTestId('save-state'), 'data-state')).toBe('dirty');

    // The image, selected after its insertion: its source field.
    const src = `https://example.com/e2e/foto-${id}.png`;
    // An image from the web: its address is behind "Usar um endereço da web".
    await page
      .locator(`${byTestId('var-img')} summary`)
      .first()
      .click();
    await page
      .locator(`${byTestId('var-img')} input[type="url"]`)
      .first()
      .fill(src);
    await frame.waitForSelector(`[data-vt-uid="${uids[2]}"] img[src="${src}"]`);

    // The title, selected by a click in the canvas: its text field.
    const title = `Título editado ${id}`;
    await frame.click(`[data-vt-uid="${uids[0]}"]`);
    const titleInput = page.locator(`${byTestId('var-text')}[data-type="text"] input`);
    await titleInput.waitFor();
    await titleInput.fill(title);
    await frame.waitForFunction(
      ([uid, text]) => document.querySelector(`[data-vt-uid="${uid}"] h2`)?.textContent === text,
      [uids[0], title],
    );

    const h2 = () => frame.textContent(`[data-vt-uid="${uids[0]}"] h2`);
    const hasImage = async () => (await frame.$(`[data-vt-uid="${uids[2]}"] img[src="${src}"]`)) !== null;

    // Undo twice: the title, then the image, go back; redo twice brings both again.
    await page.click(byTestId('undo'));
    await frame.waitForFunction(
      (uid) =>
        document.querySelector(`[data-vt-uid="${uid}"] h2`)?.textContent ===
        'Um título claro para esta seção',
      uids[0],
    );
    expect(await titleInput.inputValue()).toBe('Um título claro para esta seção');
    expect(await hasImage()).toBe(true);
    await page.click(byTestId('undo'));
    await frame.waitForFunction(
      ([uid, url]) => document.querySelector(`[data-vt-uid="${uid}"] img[src="${url}"]`) === null,
      [uids[2], src],
    );
    expect(await h2()).toBe('Um título claro para esta seção');
    expect(await canvasUids(frame)).toEqual(uids);

    await page.click(byTestId('redo'));
    await frame.waitForSelector(`[data-vt-uid="${uids[2]}"] img[src="${src}"]`);
    expect(await h2()).toBe('Um título claro para esta seção');
    await page.click(byTestId('redo'));
    await frame.waitForFunction(
      ([uid, text]) => document.querySelector(`[data-vt-uid="${uid}"] h2`)?.textContent === text,
      [uids[0], title],
    );
    expect(await page.isDisabled(byTestId('redo'))).toBe(true);

    // Autosave, 5 s after the last edit, without touching the save button.
    expect(await page.getAttribute(byTestId('save-state'), 'data-state')).toBe('dirty');
    await waitForSaved(20_000);
    const saved = await apiGet<ApiPage>(context, `/api/project/${projectId}/page/${home.id}`);
    expect(saved.blocks.map((block) => block.uid)).toEqual(uids);
    const savedJson = JSON.stringify(saved.blocks);
    expect(savedJson).toContain(title);
    expect(savedJson).toContain(src);
    expect(saved.output).toContain(title);

    // Deploy: the Publish modal ends on the live address.
    await page.click(byTestId('deploy-button'));
    const outcome = await confirmPublish(page);
    // The live address is the edge's, for the site's host (global setup sets the preview template).
    const live = new URL((await outcome.getAttribute('href')) ?? '');
    expect(live.host).toBe(`${project.slug}.${platformDomain}:${new URL(edgeURL).port}`);

    // The edge serves the published home page with both edits.
    const body = await waitForEdge(project.slug, '/', title);
    // The renderer escapes attribute values (`/` as `&#x2f;`): compare the decoded value.
    expect(attributeValues(body, 'img', 'src')).toContain(src);
    expect(body).not.toContain('Um título claro para esta seção');
  });

  it('publishes a collection page bound to post fields: each post at /{page}/{post} shows its own name', async () => {
    const id = randomUUID().slice(0, 8);
    const projectId = await createProjectViaApi(context, `Colecao ${id}`);
    const project = await apiGet<ApiProject>(context, `/api/projects/${projectId}`);

    const table = await apiPost<{ id: number }>(context, '/api/tables', {
      project_id: projectId,
      name: 'Artigos',
      slug: 'artigos',
      meta: collectionMeta('Artigos', 'Artigo'),
    });
    const posts = [
      { name: `Primeiro artigo ${id}`, slug: 'primeiro-artigo' },
      { name: `Segundo artigo ${id}`, slug: 'segundo-artigo' },
    ];
    for (const post of posts)
      await apiPost(context, '/api/posts', { table_id: table.id, ...post, fields: [] });

    const created = await apiPost<ApiPage>(context, '/api/pages', { project_id: projectId, name: 'Artigo' });
    const updated = await apiPost<ApiPage>(context, `/api/page/${created.id}`, {
      slug: 'artigo',
      table_id: table.id,
    });
    expect(updated.table_id).toBe(table.id);
    expect(updated.slug).toBe('artigo');

    const frame = await openEditor(projectId, created.id);
    await page.waitForSelector(byTestId('post-select'));

    // The post header from the collection-item category: its title is bound to the post's name.
    const header = libraryBlock('collection-item/00-cabecalho-do-post');
    await page.click(`${byTestId('library-category')}:text-is("${categoryOf(header.uid)}")`);
    await page.click(`${byTestId('library-block')}[data-block-id="${header.id}"] ${byTestId('library-add')}`);
    const [uid] = await waitForCanvasBlocks(frame, 1);
    await page.waitForSelector(byTestId('bound-title'));
    expect(await page.inputValue(byTestId('bind-title'))).toBe('name');

    // The canvas previews the post chosen beside the tabs, with the bound name.
    const canvasTitle = (name: string) =>
      frame.waitForFunction(
        ([blockUid, text]) =>
          document.querySelector(`[data-vt-uid="${blockUid}"] .vt-ph-title`)?.textContent === text,
        [uid, name],
      );
    const previewed = await page.inputValue(byTestId('post-select'));
    const first = posts.find((post) => post.slug === previewed);
    if (!first) throw new Error(`the editor previews "${previewed}", not one of the collection's posts`);
    await canvasTitle(first.name);
    const second = posts.find((post) => post !== first);
    if (!second) throw new Error('two posts');
    await page.selectOption(byTestId('post-select'), second.slug);
    await canvasTitle(second.name);

    // Saved with the button (not autosave this time), then published through the API.
    await page.click(byTestId('save-state'));
    await waitForSaved(10_000);
    const saved = await apiGet<ApiPage>(context, `/api/project/${projectId}/page/${created.id}`);
    expect(saved.table_id).toBe(table.id);
    expect(saved.blocks.map((block) => block.uid)).toEqual([uid]);
    expect(saved.blocks[0]?.vars?.find((v) => v.name === 'title')?.postfield).toBe('name');

    const publish = await context.request.post(`${baseURL}/api/publish_v2/${projectId}`, {
      data: { project_id: projectId },
    });
    expect(
      publish.ok(),
      `POST /api/publish_v2/${projectId}: ${publish.status()} ${await publish.text()}`,
    ).toBe(true);

    for (const [index, post] of posts.entries()) {
      const body = await waitForEdge(project.slug, `/artigo/${post.slug}`, post.name);
      const other = posts[1 - index];
      expect(body).not.toContain(other?.name);
      expect(body).toContain('vt-ph-title');
    }
    // A slug that names no post is not a page.
    expect((await edgeRequest(project.slug, 'GET', '/artigo/nao-existe')).status).toBe(404);
  });
});
