/**
 * Publishing end to end, against the real control plane: the overview's state opens Publish,
 * the deploy runs against POST /api/publish_v2/{id}, and the modal ends on the server's real
 * answer: the live address (then the state, the deploy history and Unpublish follow), or, for
 * a site whose build fails (a block template with a syntax error), the server's serialized
 * answer in the Response box, with the site left unpublished.
 *
 * Needs a control plane that serves the publishing API (publish_v2, unpublish, deploys):
 * a missing route (404/405) is not a deploy failure and fails the test.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  baseURL,
  byTestId,
  collectionMeta,
  confirmPublish,
  createProjectViaApi,
  snapshot,
  useBrowser,
} from './support';

const session = useBrowser();
let context: BrowserContext;
let page: Page;
let projectId: number;

beforeAll(async () => {
  context = await session.registered('publishing');
  projectId = await createProjectViaApi(context, 'Publishing site');
  page = await context.newPage();
});

const state = () => page.textContent(byTestId('project-state'));

/** The deploy history has loaded: a table of deploys or the empty note, never its error. */
async function waitForHistory(): Promise<void> {
  await page.waitForSelector(
    `${byTestId('deploys-table')}, ${byTestId('deploys-empty')}, ${byTestId('deploys-error')}`,
  );
  const error = await page.$(byTestId('deploys-error'));
  expect(error ? await error.textContent() : null, 'GET /api/projects/{id}/deploys').toBeNull();
}

describe('publishing', () => {
  it('publishes from the overview state and ends on the live address', async () => {
    await page.goto(`/project/${projectId}`);
    await page.waitForSelector(byTestId('project-overview'));
    expect(await state()).toBe('Não publicado');

    await page.click(byTestId('project-state'));
    const outcome = await confirmPublish(page);

    const url = await outcome.getAttribute('href');
    expect(url).toMatch(/^https?:\/\/\S+$/);
    expect(await outcome.getAttribute('target')).toBe('_blank');
    await page.waitForSelector(`${byTestId('project-state')}:text-is("Publicado")`);
    await page.click(byTestId('publish-done'));
    await waitForHistory();

    // The new deploy is in the history, ready and live, without a reload.
    const live = await page.waitForSelector(`${byTestId('deploy-row')}[data-live="true"]`);
    expect(await (await live.$(byTestId('deploy-status')))?.textContent()).toBe('Pronto');

    await page.click(byTestId('project-state'));
    await page.waitForSelector(`${byTestId('unpublish-modal')}[role="dialog"]`);
    await page.click(byTestId('unpublish-confirm'));
    await page.waitForSelector(byTestId('unpublish-success'));
    await page.waitForSelector(`${byTestId('project-state')}:text-is("Não publicado")`);

    // Saved on the server, not only in the cache.
    await page.reload();
    await page.waitForSelector(`${byTestId('project-state')}:text-is("Não publicado")`);
    await waitForHistory();
    expect(await page.$$(byTestId('deploy-row'))).not.toHaveLength(0);
  });
  it('shows a failed build in the Response box and leaves the site unpublished', async () => {
    const broken = await createProjectViaApi(context, 'Broken site');
    const project = (await (await context.request.get(`${baseURL}/api/projects/${broken}`)).json()) as {
      pages: { id: number }[];
    };
    const update = await context.request.post(`${baseURL}/api/page/${project.pages[0]?.id}`, {
      data: { blocks: [{ uid: 'quebrado', name: 'Quebrado', template: '{% for x in %}', css: '', js: '' }] },
    });
    expect(update.ok(), await update.text()).toBe(true);

    await page.goto(`/project/${broken}`);
    await page.waitForSelector(byTestId('project-overview'));
    await page.click(byTestId('project-state'));
    await page.click(byTestId('publish-confirm'));
    await page.waitForSelector(byTestId('response-box'), { timeout: 45_000 });
    const response = JSON.parse((await page.textContent(byTestId('response-body'))) ?? '') as {
      status?: number;
      message?: string;
    };
    expect(response.status).toBe(422);
    expect(response.message).toContain('Template error on page "Início" in block "quebrado"');
    expect(await state()).toBe('Não publicado');
    await waitForHistory();
    const failed = await page.waitForSelector(`${byTestId('deploy-row')}`);
    expect(await (await failed.$(byTestId('deploy-status')))?.textContent()).not.toBe('Pronto');
  });

  it('refuses a site too large for the edge with its size and the limit, and keeps the live deploy', async () => {
    const big = await createProjectViaApi(context, 'Inchado');
    const post = async (path: string, data: unknown) => {
      const res = await context.request.post(`${baseURL}${path}`, { data });
      expect(res.ok(), await res.text()).toBe(true);
      return (await res.json()) as { id: number };
    };
    await post(`/api/publish_v2/${big}`, {});

    // Collection pages carry their templates in the site's index: two of 1.2 MB each.
    const table = await post('/api/tables', {
      project_id: big,
      name: 'Itens',
      meta: collectionMeta('Itens', 'Item'),
    });
    const template = `<p>${'x'.repeat(1_200_000)}</p>`;
    for (const name of ['Itens A', 'Itens B']) {
      const created = await post('/api/pages', { project_id: big, name });
      await post(`/api/page/${created.id}`, {
        table_id: table.id,
        blocks: [{ uid: 'grande', name: 'Grande', template, css: '', js: '' }],
      });
    }

    // Published again from the overview's publish menu.
    await page.goto(`/project/${big}`);
    await page.waitForSelector(`${byTestId('project-state')}:text-is("Publicado")`);
    await page.click(byTestId('publish-menu'));
    await page.click(byTestId('publish-menu-publish'));
    await page.waitForSelector(`${byTestId('publish-modal')}[role="dialog"]`);
    await page.click(byTestId('publish-confirm'));
    await page.waitForSelector(byTestId('response-box'), { timeout: 45_000 });
    const response = JSON.parse((await page.textContent(byTestId('response-body'))) ?? '') as {
      status?: number;
      error?: string;
      message?: string;
    };
    expect(response.status).toBe(422);
    expect(response.error).toBe('site_too_large');
    // The box says it in the interface's language; the serialized answer keeps the server's text.
    expect(response.message).toContain('The published site is too large');
    expect(await page.textContent(byTestId('response-message'))).toMatch(
      /^O site publicado é grande demais: o índice de páginas, redirecionamentos e modelos ocupa \d+ KB, e o máximo é 2048 KB\. Remova redirecionamentos ou páginas e publique de novo\.$/,
    );
    await snapshot(page, 'site-too-large');
    // The deploy that was live stays live.
    await page.keyboard.press('Escape');
    await page.reload();
    await page.waitForSelector(`${byTestId('project-state')}:text-is("Publicado")`);
    await waitForHistory();
    const live = await page.waitForSelector(`${byTestId('deploy-row')}[data-live="true"]`);
    expect(await (await live.$(byTestId('deploy-status')))?.textContent()).toBe('Pronto');
    // The failed attempt's reason in the history is in the interface's language too.
    expect(await page.textContent(`${byTestId('deploy-row')} ${byTestId('deploy-error')}`)).toMatch(
      /^O site publicado é grande demais: .* 2048 KB\./,
    );
  });
});
