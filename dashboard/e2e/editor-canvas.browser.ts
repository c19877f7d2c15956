/**
 * The page editor's canvas in chromium, against a fake API (page.route): 50 blocks, a field
 * edit timed from the input event to the canvas DOM, the sandbox keeping block code away from
 * the dashboard, drag and drop from the library into the iframe and of a block's handle, the
 * canvas reachable by scrolling at every scale and device (never under the side panels), and
 * block labels shown only on hover or selection, above the block, and inline editing of text
 * and rich-text fields by double-click.
 */
import type { Frame, Page, Route } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { byTestId, expectCanvasFitsWindow, fulfillJson, usePreview } from './support';

interface Block {
  uid: string;
  block_id: number;
  name: string;
  template: string;
  css: string;
  js: string;
  vars: { name: string; type: string; label?: string; value: unknown }[];
}

const blocks: Block[] = Array.from({ length: 50 }, (_, i) => ({
  uid: `b-${String(i).padStart(3, '0')}`,
  block_id: 1,
  name: `Bloco ${i}`,
  template: '<section><h2>{{ title }}</h2></section>',
  css: 'section{padding:30px;border-bottom:1px solid #ddd}',
  js: '',
  vars: [{ name: 'title', type: 'text', label: 'Título', value: `Título ${i}` }],
}));

/** A block whose script tries to reach the dashboard and reports what happened. */
const probe: Block = {
  uid: 'b-probe',
  block_id: 2,
  name: 'Probe',
  template: '<section id="probe">{{ title }}</section>',
  css: '',
  js: `var out = [];
try { out.push(parent.document.title ? 'parent-dom' : 'parent-dom-empty'); } catch (e) { out.push('parent-blocked'); }
try { out.push('cookie:' + document.cookie); } catch (e) { out.push('cookie-blocked'); }
try { localStorage.setItem('x', '1'); out.push('storage'); } catch (e) { out.push('storage-blocked'); }
document.getElementById('probe').setAttribute('data-result', out.join(' '));`,
  vars: [{ name: 'title', type: 'text', value: 'probe' }],
};

const library = {
  categories: [
    {
      id: 1,
      key: 'elements',
      name: 'Elements',
      icon: '',
      order: 1,
      blocks: [
        {
          id: 12,
          uid: 'elements/button',
          name: 'Botão',
          image: null,
          keywords: 'button',
          category_id: 1,
          order: 1,
          template: `<div class="btn" x-vars='[{"name":"label","type":"text","value":"Clique"}]'><a href="https://example.com/">{{ label }}</a></div>`,
          css: '.btn{padding:20px;background:#eef}',
          js: '',
        },
      ],
    },
  ],
  my_blocks: [],
  business_blocks: [],
};

const escape = (text: string) => text.replace(/[&<>]/g, (c) => `&#${c.charCodeAt(0)};`);

/** A text variable's value; the blocks here have no others. */
const stringValue = (value: unknown) => (typeof value === 'string' ? value : '');

/** The render API, enough of it: `{{ name }}` replaced by the variable's value (rich text as is). */
function renderBlock(block: Block) {
  return {
    uid: block.uid,
    html: block.template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => {
      const v = block.vars.find((candidate) => candidate.name === name);
      const value = stringValue(v?.value);
      return v?.type === 'richtext' ? value : escape(value);
    }),
  };
}

const served = usePreview();
let page: Page;
let saves: unknown[];

async function answer(route: Route, pageBlocks: Block[]) {
  const request = route.request();
  const url = new URL(request.url());
  const json = (body: unknown, status = 200) => fulfillJson(route, body, status);
  switch (`${request.method()} ${url.pathname}`) {
    case 'GET /api/user':
      return json({
        id: 1,
        name: 'Ana',
        email: 'ana@example.com',
        language: 'pt-BR',
        currency: 'BRL',
        business_id: null,
        is_admin: false,
        is_business_admin: false,
        permissions: {},
        created_at: '',
      });
    case 'GET /api/projects/7':
      return json({
        id: 7,
        name: 'Loja',
        slug: 'loja',
        domain: null,
        token: 't',
        uuid: 'u',
        is_published: false,
        thumbnail: null,
        created_at: '',
        updated_at: '',
        preview_url: '',
        meta: {},
        pages: [{ id: 3, name: 'Início', slug: '/', table_id: null, is_home: true, updated_at: '' }],
        tables: [],
      });
    case 'GET /api/project/7/page/3':
      return json({
        id: 3,
        project_id: 7,
        name: 'Início',
        slug: '/',
        description: '',
        image: null,
        meta: {},
        output: '',
        blocks: pageBlocks,
        table_id: null,
        is_home: true,
        created_at: '',
        updated_at: '',
      });
    case 'GET /api/blocks':
      return json(library);
    case 'GET /api/project/7/sections':
      // A project without shared sections: the page's own blocks are the whole canvas.
      return json({});
    case 'POST /api/project/7/render': {
      const body = request.postDataJSON() as { blocks: Block[] };
      return json({
        head: '<style>body{margin:0;font-family:sans-serif}</style>',
        blocks: body.blocks.map(renderBlock),
      });
    }
    case 'POST /api/page/3':
      saves.push(request.postDataJSON());
      return json({ id: 3, project_id: 7 });
    default:
      return json({ error: 'test', message: `unexpected ${request.method()} ${url.pathname}` }, 599);
  }
}

async function openEditor(pageBlocks: Block[] = blocks): Promise<Frame> {
  await page.route('**/api/**', (route) => answer(route, pageBlocks));
  await page.goto(`${served.baseURL}project/7/3`);
  const handle = await page.waitForSelector(byTestId('canvas-iframe'));
  const frame = await handle.contentFrame();
  if (!frame) throw new Error('no canvas frame');
  await frame.waitForSelector(`[data-vt-uid="${pageBlocks[pageBlocks.length - 1]?.uid}"]`);
  return frame;
}

const order = (frame: Frame) =>
  frame.$$eval('[data-vt-uid]', (els) => els.map((el) => el.getAttribute('data-vt-uid')));

beforeEach(async () => {
  saves = [];
  const context = await served.browser.newContext({ viewport: { width: 1600, height: 1000 } });
  page = await context.newPage();
  return () => context.close();
});

describe('editor canvas in a browser', () => {
  it('shows a field edit in the canvas within 100 ms on a 50-block page', async () => {
    const frame = await openEditor();
    expect(await frame.locator('[data-vt-uid]').count()).toBe(50);
    await frame.locator('[data-vt-uid="b-025"] h2').click();
    await page.waitForSelector(byTestId('var-title'));
    await frame.evaluate(() => {
      const times: number[] = [];
      (window as unknown as { changes: number[] }).changes = times;
      new MutationObserver(() => times.push(Date.now())).observe(
        document.getElementById('vt-canvas') as HTMLElement,
        { childList: true, subtree: true, characterData: true },
      );
    });
    await page.evaluate(() => {
      const times: number[] = [];
      (window as unknown as { inputs: number[] }).inputs = times;
      document.addEventListener('input', () => times.push(Date.now()), true);
    });
    await page.locator(`${byTestId('var-title')} input`).click();
    for (let i = 0; i < 10; i += 1) {
      await page.keyboard.type('x');
      await frame.waitForFunction(
        (n) => document.querySelector('[data-vt-uid="b-025"] h2')?.textContent?.endsWith('x'.repeat(n)),
        i + 1,
      );
    }
    const inputs = await page.evaluate(() => (window as unknown as { inputs: number[] }).inputs);
    const changes = await frame.evaluate(() => (window as unknown as { changes: number[] }).changes);
    const delays = inputs
      .map((at) => (changes.find((change) => change >= at) ?? Infinity) - at)
      .sort((a, b) => a - b);
    expect(delays).toHaveLength(10);
    expect(delays[Math.floor(delays.length / 2)]).toBeLessThan(100);
    expect(await frame.locator('[data-vt-uid="b-025"] h2').textContent()).toBe(`Título 25${'x'.repeat(10)}`);
  });

  it('runs block code on an opaque origin, away from the dashboard', async () => {
    const frame = await openEditor([probe]);
    expect(await page.locator(byTestId('canvas-iframe')).getAttribute('sandbox')).toBe('allow-scripts');
    await frame.waitForSelector('#probe[data-result]');
    expect(await frame.getAttribute('#probe', 'data-result')).toBe(
      'parent-blocked cookie-blocked storage-blocked',
    );
  });

  it('selects a clicked block, and links in blocks do not navigate the canvas', async () => {
    await page.route('https://example.com/**', (route) => route.abort());
    const frame = await openEditor([
      probe,
      {
        ...probe,
        uid: 'b-link',
        name: 'Link',
        template: '<a id="go" style="display:block;padding:40px" href="https://example.com/">go</a>',
        js: '',
      },
    ]);
    await frame.click('#go');
    expect(await page.locator(byTestId('block-name')).textContent()).toBe('Link');
    expect(await frame.evaluate(() => document.getElementById('vt-canvas') !== null)).toBe(true);
    expect(await frame.getAttribute('[data-vt-uid="b-link"]', 'class')).toContain('vt-selected');
  });

  it('inserts a library block where it is dropped over the iframe, and moves a block by its handle', async () => {
    const frame = await openEditor(blocks.slice(0, 6));
    const item = (await page.locator(`${byTestId('category-elements')} .library-block-drag`).boundingBox())!;
    const canvas = (await page.locator(byTestId('canvas-iframe')).boundingBox())!;
    const second = (await page.locator(`${byTestId('block-handle')}[data-uid="b-001"]`).boundingBox())!;
    await page.mouse.move(item.x + 20, item.y + 10);
    await page.mouse.down();
    await page.mouse.move(item.x + 40, item.y + 30, { steps: 5 });
    // Just above the middle of the second block: the new block goes before it.
    await page.mouse.move(canvas.x + 300, second.y + 8, { steps: 10 });
    expect(await page.locator(byTestId('drop-line')).count()).toBe(1);
    await page.mouse.up();
    await frame.waitForFunction(() => document.querySelectorAll('[data-vt-uid]').length === 7);
    const after = await order(frame);
    expect(after.slice(0, 1)).toEqual(['b-000']);
    expect(after[1]).toMatch(/^b-[0-9a-f]{8}$/);
    expect(await page.locator(byTestId('block-name')).textContent()).toBe('Botão');

    // Drag the first block's handle (shown while the block is hovered) to the bottom of the page.
    await page.mouse.move(canvas.x + 300, canvas.y + 20);
    const first = page.locator(`${byTestId('block-handle')}[data-uid="b-000"]`);
    await page.waitForFunction(
      (selector) => document.querySelector(selector)?.classList.contains('is-shown'),
      `${byTestId('block-handle')}[data-uid="b-000"]`,
    );
    const handle = (await first.boundingBox())!;
    await page.mouse.move(handle.x + 5, handle.y + 5);
    // Over the label itself it stays shown (the canvas reports the pointer gone) and takes the press.
    await page.waitForFunction(
      ([x, y]) => {
        const at = document.elementFromPoint(x as number, y as number);
        return at?.getAttribute('data-uid') === 'b-000' && at.classList.contains('is-shown');
      },
      [handle.x + 5, handle.y + 5],
    );
    await page.mouse.down();
    await page.mouse.move(handle.x + 5, handle.y + 30, { steps: 5 });
    await page.mouse.move(handle.x + 5, canvas.y + canvas.height - 5, { steps: 10 });
    await page.mouse.up();
    await frame.waitForFunction(
      () => document.querySelector('[data-vt-uid]')?.getAttribute('data-vt-uid') !== 'b-000',
    );
    expect((await order(frame)).at(-1)).toBe('b-000');
    expect(await page.locator(byTestId('save-state')).getAttribute('data-state')).toBe('dirty');
  });

  it('keeps the canvas between the side panels and reachable by scrolling at every scale and device', async () => {
    await openEditor(blocks.slice(0, 12));
    /** The frame's box against the stage's visible box and the panels', scrolled to each end. */
    const measure = () =>
      page.evaluate(() => {
        const box = (selector: string) => document.querySelector(selector)!.getBoundingClientRect();
        const stage = document.querySelector<HTMLElement>('[data-testid="canvas-stage"]')!;
        const ends = (left: number, top: number) => {
          stage.scrollTo(left, top);
          const frame = box('.canvas-frame');
          return { left: frame.left, right: frame.right, top: frame.top, bottom: frame.bottom };
        };
        const start = ends(0, 0);
        const end = ends(stage.scrollWidth, stage.scrollHeight);
        const s = stage.getBoundingClientRect();
        return {
          library: box('.editor-library'),
          panel: box('.editor-panel'),
          // The stage's visible area, scroll bars left out.
          stage: {
            left: s.left,
            top: s.top,
            right: s.left + stage.clientWidth,
            bottom: s.top + stage.clientHeight,
          },
          start,
          end,
        };
      });
    const check = async (what: string) => {
      const m = await measure();
      const where = `${what}: ${JSON.stringify(m)}`;
      expect(m.stage.left, where).toBeGreaterThanOrEqual(m.library.right - 0.5);
      expect(m.stage.right, where).toBeLessThanOrEqual(m.panel.left + 0.5);
      // Scrolled to the start, the frame's left and top edges are in view; at the end, its right
      // and bottom edges: every part of it can be brought out from under the panels.
      expect(m.start.left, where).toBeGreaterThanOrEqual(m.stage.left);
      expect(m.start.top, where).toBeGreaterThanOrEqual(m.stage.top);
      expect(m.end.right, where).toBeLessThanOrEqual(m.stage.right + 0.5);
      expect(m.end.bottom, where).toBeLessThanOrEqual(m.stage.bottom + 0.5);
      expect(m.end.right, where).toBeLessThanOrEqual(m.panel.left);
      expect(m.start.left, where).toBeGreaterThanOrEqual(m.library.right);
      return m;
    };
    const scale = page.locator(byTestId('scale-select'));
    await scale.selectOption('1');
    const full = await check('100 %');
    // At 100 % the 1280 px frame is wider than the stage: it scrolls, its right edge clear of
    // the library panel as well as of the right panel.
    expect(full.start.right - full.start.left).toBeCloseTo(1280, 0);
    expect(full.end.right).toBeGreaterThan(full.library.right);
    for (const value of ['fit', '0.5', '0.75']) {
      await scale.selectOption(value);
      await check(`${value} scale`);
    }
    await page.locator(byTestId('device-mobile')).click();
    const devices = await page
      .locator(`${byTestId('device-select')} option`)
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    expect(devices.length).toBeGreaterThan(1);
    for (const device of devices) {
      await page.locator(byTestId('device-select')).selectOption(device);
      await check(device);
    }
  });

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 1440, height: 900 },
  ]) {
    it(`fits the whole canvas in a ${viewport.width}x${viewport.height} window at the default zoom, with no horizontal overflow`, async () => {
      await page.setViewportSize(viewport);
      await openEditor(blocks.slice(0, 12));
      await expectCanvasFitsWindow(page, viewport.width);
    });
  }

  it('shows a phone a note with the way back to the project instead of the editor', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.route('**/api/**', (route) => answer(route, blocks.slice(0, 2)));
    await page.goto(`${served.baseURL}project/7/3`);
    const note = page.locator(byTestId('editor-small-screen'));
    await note.waitFor();
    expect(await note.locator('h2').textContent()).toBe('O editor precisa de uma tela maior');
    expect(await page.locator(byTestId('editor-topbar')).isVisible()).toBe(false);
    expect(await page.locator(byTestId('canvas-stage')).isVisible()).toBe(false);
    expect(await page.locator(byTestId('editor-small-screen-back')).getAttribute('href')).toBe('/project/7');
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
    ).toBe(true);
  });

  it('shows a block label only on hover or selection, above the block, never over its controls', async () => {
    const frame = await openEditor(blocks.slice(0, 4));
    // At 100 %, so that the canvas's coordinates are the page's.
    await page.locator(byTestId('scale-select')).selectOption('1');
    const label = (uid: string) => page.locator(`${byTestId('block-handle')}[data-uid="${uid}"]`);
    const opacity = (uid: string) => label(uid).evaluate((el) => getComputedStyle(el).opacity);
    expect(await opacity('b-001')).toBe('0');
    expect(await opacity('b-000')).toBe('0');
    // A hidden label takes no clicks: the point where it sits belongs to the canvas.
    const hidden = (await label('b-001').boundingBox())!;
    const under = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x as number, y as number)?.tagName,
      [hidden.x + 4, hidden.y + hidden.height / 2],
    );
    expect(under).toBe('IFRAME');

    const second = (await page.locator(byTestId('canvas-iframe')).boundingBox())!;
    const block = await frame.locator('[data-vt-uid="b-001"]').boundingBox();
    // Frame coordinates are the page's here (playwright reports them in the main frame's).
    await page.mouse.move(second.x + 200, block!.y + block!.height / 2);
    await page.waitForFunction(() =>
      document
        .querySelector('[data-testid="block-handle"][data-uid="b-001"]')
        ?.classList.contains('is-shown'),
    );
    expect(await opacity('b-001')).toBe('1');
    expect(await opacity('b-000')).toBe('0');
    const shown = (await label('b-001').boundingBox())!;
    // Above the block's top edge, not over its content.
    expect(shown.y + shown.height).toBeLessThanOrEqual(block!.y + 0.5);

    // Selected, it stays shown after the pointer has gone.
    await frame.click('[data-vt-uid="b-002"] h2');
    await page.mouse.move(5, 5);
    await page.waitForFunction(
      () =>
        !document
          .querySelector('[data-testid="block-handle"][data-uid="b-001"]')
          ?.classList.contains('is-shown'),
    );
    expect(await opacity('b-002')).toBe('1');
    expect(await opacity('b-001')).toBe('0');
    const selected = (await frame.locator('[data-vt-uid="b-002"]').boundingBox())!;
    const selectedLabel = (await label('b-002').boundingBox())!;
    expect(selectedLabel.y + selectedLabel.height).toBeLessThanOrEqual(selected.y + 0.5);
  });

  it('edits text in place on a double-click: Enter commits, Escape cancels, rich text keeps its markup', async () => {
    const rich: Block = {
      uid: 'b-rich',
      block_id: 3,
      name: 'Texto rico',
      template: '<div class="rt">{{ body }}</div>',
      css: '.rt{padding:20px}',
      js: '',
      vars: [{ name: 'body', type: 'richtext', label: 'Corpo', value: '<p>Um <b>dois</b> e</p>' }],
    };
    const frame = await openEditor([...blocks.slice(0, 2), rich]);
    // At 100 %, so that the canvas's coordinates are the page's.
    await page.locator(byTestId('scale-select')).selectOption('1');
    expect(await page.locator(byTestId('canvas-iframe')).getAttribute('sandbox')).toBe('allow-scripts');

    // Enter commits: the field and the canvas (rendered again by the server) follow.
    await frame.dblclick('[data-vt-uid="b-000"] h2');
    await frame.waitForSelector('[data-vt-uid="b-000"] h2[contenteditable]');
    await page.keyboard.type('Novo título');
    await page.keyboard.press('Enter');
    await frame.waitForFunction(
      () =>
        document.querySelector('[data-vt-uid="b-000"] h2')?.textContent === 'Novo título' &&
        !document.querySelector('[contenteditable]'),
    );
    await page.waitForFunction(
      (selector) => document.querySelector<HTMLInputElement>(selector)?.value === 'Novo título',
      `${byTestId('var-title')} input`,
    );

    // Escape puts the text back and changes nothing.
    await frame.dblclick('[data-vt-uid="b-001"] h2');
    await frame.waitForSelector('[data-vt-uid="b-001"] h2[contenteditable]');
    await page.keyboard.type('zzz');
    await page.keyboard.press('Escape');
    await frame.waitForFunction(() => !document.querySelector('[contenteditable]'));
    expect(await frame.textContent('[data-vt-uid="b-001"] h2')).toBe('Título 1');

    // Rich text: the element holding the whole value is edited as markup, committed on blur.
    await frame.dblclick('[data-vt-uid="b-rich"] b');
    await frame.waitForSelector('[data-vt-uid="b-rich"] .rt[contenteditable]');
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' três');
    await page.click(byTestId('block-name'));
    await frame.waitForFunction(
      () =>
        document.querySelector('[data-vt-uid="b-rich"] .rt')?.textContent?.replace(/\s+/g, ' ') ===
          'Um dois e três' && !document.querySelector('[contenteditable]'),
    );
    await page.click(byTestId('save-state'));
    await page.waitForFunction(
      () => document.querySelector('[data-testid="save-state"]')?.getAttribute('data-state') === 'saved',
    );
    const saved = saves.at(-1) as { blocks: Block[] };
    const values = saved.blocks.map((block) => block.vars[0]?.value);
    expect(values.slice(0, 2)).toEqual(['Novo título', 'Título 1']);
    // Typed after the bold word, as plain text (a typed space may come as a no-break space).
    expect(values[2]).toMatch(/^<p>Um <b>dois<\/b> e(?: |&nbsp;)três<\/p>$/);
  });
});
