/**
 * A new owner's journey, in pt-BR, through the real dashboard and then the published site on
 * the edge, in one Chromium (issue 22):
 *
 * register (the register screen) → a site from the bakery template ("Padaria Grão Dourado") →
 * a collection "Tortas" with a currency "Preço" field and two records (the collections
 * screens) → its detail page made with "+ Nova página" (collection page) and a "Detalhe do
 * produto" block → a "Grade de produtos" bound to it on the home page, beside the template's
 * own product grid (the editor) → the brand renamed in the home page's header → publish (the
 * publish dialog) → on the edge: prices formatted, every "Ver detalhes" opens its product page,
 * every same-site link answers 200 (breadth-first crawl from /), no page has a body margin, the
 * contact form confirms its submission, and the submission is in the project's form history.
 *
 * The template already ships a "Produtos" collection (with its /produtos list and /produto
 * detail page), so the journey's own collection is "Tortas": a second "Produtos" would clash
 * with the template's slug and leave two detail pages for the owner to tell apart.
 *
 * Every step goes through the interface, as the owner and the visitor would; the test reads
 * nothing from the API and calls it for nothing.
 *
 * With JOURNEY_SCREENS set (`JOURNEY_SCREENS=../docs/screens/journey npm run journey`), each
 * step's viewport (1280×800) is saved as JOURNEY_SCREENS/NN-step.png; otherwise nothing is written.
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { byTestId, confirmPublish, newAccount, pathIs, useBrowser } from './support';

const screensDir = process.env.JOURNEY_SCREENS ? resolve(process.cwd(), process.env.JOURNEY_SCREENS) : null;
const VIEWPORT = { width: 1280, height: 800 };
const JOURNEY_TIMEOUT_MS = 180_000;
const BAKERY = 'Padaria Grão Dourado';
const NEW_BRAND = 'Forno da Vila';
/** The collection the owner adds, its records and their prices as typed (cents) and shown. */
const TORTAS = [
  { name: 'Torta de limão', cents: '8990', shown: 'R$ 89,90' },
  { name: 'Torta de nozes', cents: '124500', shown: 'R$ 1.245,00' },
];
/** A price as the site shows it: "R$ 42,00", "R$ 1.245,00" — never raw cents. */
const FORMATTED_PRICE = /^R\$\s\d{1,3}(\.\d{3})*,\d{2}$/;

const session = useBrowser();
let step = 0;

/** Saves the viewport as NN-name.png when JOURNEY_SCREENS is set. */
async function screen(page: Page, name: string): Promise<void> {
  step += 1;
  if (!screensDir) return;
  await mkdir(screensDir, { recursive: true });
  await page.screenshot({ path: join(screensDir, `${String(step).padStart(2, '0')}-${name}.png`) });
}

async function canvas(page: Page): Promise<Frame> {
  await page.waitForSelector(byTestId('page-editor'));
  const frame = await (await page.waitForSelector(byTestId('canvas-iframe'))).contentFrame();
  if (!frame) throw new Error('the canvas iframe has no frame');
  await frame.waitForSelector('body');
  return frame;
}

/** Adds a library block found by the panel's search box, as an owner who knows its name. */
async function addBlock(page: Page, frame: Frame, name: string): Promise<string> {
  const before = await frame.$$eval('[data-vt-uid]', (els) =>
    els.map((el) => el.getAttribute('data-vt-uid')),
  );
  await page.fill(byTestId('block-search'), name);
  await page
    .locator(`${byTestId('search-results')} ${byTestId('library-block')}:has-text("${name}")`)
    .first()
    .locator(byTestId('library-add'))
    .click();
  await frame.waitForFunction(
    (count) => document.querySelectorAll('[data-vt-uid]').length === count + 1,
    before.length,
  );
  const after = await frame.$$eval('[data-vt-uid]', (els) => els.map((el) => el.getAttribute('data-vt-uid')));
  const added = after.find((uid) => !before.includes(uid));
  if (!added) throw new Error(`"${name}" added no block`);
  await page.fill(byTestId('block-search'), '');
  return added;
}

/** Saves with the top bar's button and waits for "Salvo HH:MM:SS". */
async function save(page: Page): Promise<void> {
  await page.click(byTestId('save-state'));
  await page.waitForFunction((selector) => {
    const button = document.querySelector(selector);
    return button?.getAttribute('data-state') === 'saved' && /^Salvo /.test(button.textContent ?? '');
  }, byTestId('save-state'));
}

/** Renames the business in the home page's header block, in the editor's right panel. */
async function renameBrandInHeader(page: Page, frame: Frame, brand: string): Promise<void> {
  const uid = await frame.locator('[data-vt-uid]:has(.vt-hd)').first().getAttribute('data-vt-uid');
  await frame.click(`[data-vt-uid="${uid}"] .vt-hd-in`, { position: { x: 400, y: 10 } });
  await page.locator(`${byTestId('var-brand')} input`).fill(brand);
  await frame.waitForFunction(
    ([blockUid, text]) =>
      document.querySelector(`[data-vt-uid="${blockUid}"] .vt-hd-logo`)?.textContent?.trim() === text,
    [uid, brand],
  );
}

/**
 * The site has one global header (a shared section): renamed once in the editor, it shows the new
 * brand on every page, the product pages the edge renders from the records included.
 */
const showsRenamedHeader = (page: Crawled) => page.headerBrand !== null;

interface Crawled {
  path: string;
  bodyMargin: string;
  /** The header block's brand text, or null on a page without the header block. */
  headerBrand: string | null;
}

/** Breadth-first from /, every same-site `href` of every page, visited in Chromium. */
async function crawl(page: Page, origin: string): Promise<Crawled[]> {
  const seen = new Set<string>(['/']);
  const queue = ['/'];
  const pages: Crawled[] = [];
  while (queue.length > 0) {
    const path = queue.shift() ?? '/';
    const response = await page.goto(`${origin}${path}`);
    // `goto` follows redirects: the answer is the last one's.
    expect(response?.status(), `GET ${path}`).toBe(200);
    pages.push({
      path,
      bodyMargin: await page.evaluate(() => getComputedStyle(document.body).margin),
      headerBrand: await page.evaluate(
        () => document.querySelector('.vt-hd .vt-hd-logo')?.textContent?.trim() ?? null,
      ),
    });
    const hrefs = await page.$$eval('a[href]', (links) => links.map((a) => (a as HTMLAnchorElement).href));
    for (const href of hrefs) {
      const url = new URL(href);
      if (url.origin !== origin) continue;
      const next = url.pathname + url.search;
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  return pages;
}

describe('a new owner’s journey', () => {
  it(
    'registers, builds a bakery site with its own collection, publishes it, and the visitor sees it right',
    async () => {
      const context = await session.context({ viewport: VIEWPORT, locale: 'pt-BR' });
      const page = await context.newPage();
      const owner = newAccount('journey');

      // 1. Register.
      await page.goto('/login');
      await page.waitForSelector('#register-name');
      await page.fill('#register-name', owner.name);
      await page.fill('#register-email', owner.email);
      await page.fill('#register-password', owner.password);
      await screen(page, 'cadastro');
      await page.click(byTestId('register-submit'));
      await page.waitForURL(pathIs('/'));

      // 2. A site from the bakery template.
      await page.click(byTestId('new-project-link'));
      await page.waitForSelector(byTestId('template-card'));
      await page.fill(byTestId('project-name-input'), 'Minha Padaria');
      await page.click(`${byTestId('template-card')}:has-text("${BAKERY}")`);
      await page.waitForSelector(`${byTestId('template-card')}[aria-checked="true"]:has-text("${BAKERY}")`);
      await screen(page, 'modelo-padaria');
      await page.click(byTestId('create-project-submit'));
      await page.waitForURL((url) => /^\/project\/\d+$/.test(url.pathname));
      const projectId = Number(new URL(page.url()).pathname.split('/')[2]);
      await page.waitForSelector(byTestId('project-overview'));
      const slug = ((await page.textContent(byTestId('project-slug'))) ?? '').trim();
      expect(slug).not.toBe('');
      await screen(page, 'visao-geral');

      // 3. A collection "Tortas" with a currency price, and two records.
      await page.click(byTestId('collections-link'));
      await page.waitForSelector(byTestId('collections-table'));
      await page.click(byTestId('new-collection'));
      await page.fill(byTestId('collection-name'), 'Tortas');
      await page.locator(byTestId('collection-name')).blur();
      await page.fill(byTestId('collection-plural'), 'Tortas');
      await page.fill(byTestId('collection-singular'), 'Torta');
      await page.click(byTestId('collection-save'));
      await page.waitForURL((url) => /^\/project\/\d+\/table\/\d+\/fields$/.test(url.pathname));
      await page.click(byTestId('add-field'));
      await page.waitForSelector(byTestId('field-modal'));
      await page.fill(byTestId('field-name'), 'Preço');
      await page.selectOption(byTestId('field-type'), 'currency');
      await screen(page, 'campo-preco');
      await page.click(byTestId('field-save'));
      await page.waitForSelector(byTestId('field-modal'), { state: 'detached' });
      await page.waitForSelector(`${byTestId('field-row')}[data-field-type="currency"]`);
      await page.click(byTestId('fields-browse'));
      for (const torta of TORTAS) {
        await page.click(byTestId('new-record'));
        // The list's titles are links with the same test id: the form's title field, once it shows.
        const title = page.locator(`${byTestId('record-form')} ${byTestId('record-title')}`);
        await title.fill(torta.name);
        await title.blur();
        await page.fill(byTestId('field-preco'), torta.cents);
        expect(await page.inputValue(byTestId('field-preco'))).toBe(torta.shown);
        if (torta === TORTAS[0]) await screen(page, 'novo-produto');
        await page.click(byTestId('record-save'));
        await page.waitForSelector(
          `${byTestId('records-page')} ${byTestId('record-title')}:text-is("${torta.name}")`,
        );
      }
      await page.waitForSelector(`${byTestId('records-total')}[data-total="${TORTAS.length}"]`);
      await screen(page, 'tortas');

      // 4. Its detail page: "+ Nova página", a collection page of "Tortas".
      await page.click('.breadcrumbs a:has-text("Minha Padaria")');
      await page.waitForURL(pathIs(`/project/${projectId}`));
      await page.click(byTestId('new-page'));
      const dialog = page.locator('[role="dialog"]');
      await dialog.waitFor();
      await page.keyboard.type('Torta');
      await dialog.locator(byTestId('new-page-type-collection')).click();
      await dialog.locator(`${byTestId('new-page-collection')} button`).click();
      await page.click('[role="option"]:has-text("Tortas")');
      await screen(page, 'nova-pagina');
      await dialog.locator(byTestId('new-page-create')).click();
      await page.waitForURL((url) => new RegExp(`^/project/${projectId}/\\d+$`).test(url.pathname));
      let frame = await canvas(page);
      await addBlock(page, frame, 'Detalhe do produto');
      await page.selectOption(byTestId('bind-price'), 'preco');
      await frame.waitForFunction(
        (prices) => prices.some((price) => document.body.textContent?.includes(price)),
        TORTAS.map((torta) => torta.shown),
      );
      await save(page);
      await screen(page, 'pagina-da-torta');

      // 5. The home page: a product grid bound to "Tortas", and the brand renamed in the header.
      const tortaPage = new URL(page.url()).pathname;
      await page.selectOption(byTestId('page-select'), { label: 'Início' });
      await page.waitForURL(
        (url) => url.pathname !== tortaPage && new RegExp(`^/project/${projectId}/\\d+$`).test(url.pathname),
      );
      frame = await canvas(page);
      await frame.waitForSelector('.vt-hd');
      const grid = await addBlock(page, frame, 'Grade de produtos');
      await page.fill(`${byTestId('var-title')} input`, 'Nossas tortas');
      await page.selectOption(`${byTestId('var-products')} ${byTestId('list-table')}`, 'tortas');
      await page.selectOption(byTestId('list-dbfield-price'), 'preco');
      await page.selectOption(byTestId('list-dbfield-link'), 'permalink');
      // The canvas shows the collection's records with their formatted prices (it re-renders the
      // block on each change, so the block is found again rather than held).
      await frame.waitForFunction(
        ([uid, texts]) =>
          texts.every((text) =>
            document.querySelector(`[data-vt-uid="${uid}"]`)?.textContent?.includes(text),
          ),
        [grid, TORTAS.flatMap((torta) => [torta.name, torta.shown])] as const,
      );
      await frame.evaluate((uid) => document.querySelector(`[data-vt-uid="${uid}"]`)?.scrollIntoView(), grid);
      await screen(page, 'grade-de-tortas');
      await renameBrandInHeader(page, frame, NEW_BRAND);
      await screen(page, 'nome-no-cabecalho');
      await save(page);

      // 6. Publish.
      await page.click(byTestId('deploy-button'));
      await page.waitForSelector(`${byTestId('publish-modal')}[role="dialog"]`);
      await screen(page, 'publicar');
      const live = await confirmPublish(page);
      await screen(page, 'publicado');
      // The template's font (Open Sans) is fetched and copied into the site: no observations.
      expect(await page.$(byTestId('publish-warnings'))).toBeNull();
      const origin = `http://${slug}.${inject('platformDomain')}:${new URL(inject('edgeURL')).port}`;
      expect(new URL((await live.getAttribute('href')) ?? '').origin).toBe(origin);
      await page.click(byTestId('publish-done'));

      // 7. The visitor: the home page, its prices formatted, both grids' products.
      const site = await context.newPage();
      const home = await site.goto(`${origin}/`);
      expect(home?.status()).toBe(200);
      await screen(site, 'site-inicio');
      const prices = await site.$$eval('.vt-pd-price', (els) =>
        els.map((el) => el.textContent?.trim() ?? ''),
      );
      expect(prices.length).toBeGreaterThan(TORTAS.length);
      for (const price of prices) expect(price).toMatch(FORMATTED_PRICE);
      expect(prices).toContain('R$ 42,00');
      for (const torta of TORTAS) expect(prices).toContain(torta.shown);
      const tortas = site.locator('.vt-pd:has(.vt-pd-title:text-is("Nossas tortas"))');
      expect(await tortas.locator('.vt-pd-t').allTextContents()).toEqual(TORTAS.map((torta) => torta.name));
      await tortas.scrollIntoViewIfNeeded();
      await screen(site, 'site-tortas');

      // Each "Ver detalhes" opens its product page, with its name and its formatted price.
      const details = await site.$$eval('a.vt-pd-btn', (links) =>
        links.map((a) => ({
          href: (a as HTMLAnchorElement).href,
          name: a.closest('.vt-pd-card')?.querySelector('.vt-pd-t')?.textContent?.trim() ?? '',
          price: a.closest('.vt-pd-card')?.querySelector('.vt-pd-price')?.textContent?.trim() ?? '',
        })),
      );
      expect(details.length).toBe(prices.length);
      for (const [index, detail] of details.entries()) {
        const [response] = await Promise.all([
          site.waitForResponse((r) => r.url() === detail.href && r.request().isNavigationRequest()),
          site.locator('a.vt-pd-btn').nth(index).click(),
        ]);
        expect(response.status(), detail.href).toBe(200);
        await site.waitForURL(detail.href);
        // The product page shows the product and the same formatted price as its card.
        const body = (await site.textContent('body')) ?? '';
        expect(body, detail.href).toContain(detail.name);
        expect(detail.price).toMatch(FORMATTED_PRICE);
        expect(body, detail.href).toContain(detail.price);
        if (detail.name === TORTAS[0]?.name) await screen(site, 'site-pagina-da-torta');
        await site.goBack();
        await site.waitForSelector('a.vt-pd-btn');
      }

      // Every same-site link answers 200; no page has a body margin.
      const crawled = await crawl(site, origin);
      const paths = crawled.map((c) => c.path);
      expect(paths).toEqual(expect.arrayContaining(['/', '/produtos', '/sobre', '/contato']));
      for (const detail of details) expect(paths).toContain(new URL(detail.href).pathname);
      for (const c of crawled) expect(c.bodyMargin, `body margin on ${c.path}`).toBe('0px');

      // The renamed brand, on every page: each shows the one global header.
      const withHeader = crawled.filter(showsRenamedHeader);
      expect(withHeader.map((c) => c.path)).toEqual(paths);
      for (const c of withHeader) expect(c.headerBrand, c.path).toBe(NEW_BRAND);

      // The contact form: sent, confirmed, and in the dashboard's form history.
      const message = `Quero encomendar uma torta de limão para sábado (${owner.email}).`;
      await site.goto(`${origin}/contato`);
      // The labels are the bakery template's own.
      const form = site.locator('form').first();
      await form.getByLabel('Nome', { exact: true }).fill('Ana Visitante');
      await form.getByLabel('E-mail', { exact: true }).fill('ana.visitante@example.com');
      await form.getByLabel('Sua encomenda, evento ou dúvida').fill(message);
      // The edge answers the post with a 303 to the page with ?enviado=1, which shows the
      // confirmation (shared/src/form_sent.rs).
      const [posted] = await Promise.all([
        site.waitForResponse(
          (r) => new URL(r.url()).pathname === '/_forms' && r.request().method() === 'POST',
        ),
        form.getByRole('button', { name: 'Enviar mensagem' }).click(),
      ]);
      expect(posted.status()).toBe(303);
      await site.waitForURL((url) => url.pathname === '/contato' && url.searchParams.get('enviado') === '1');
      expect(await site.textContent('#vitrine-form-sent[role="status"]')).toBe(
        'Obrigado! Sua mensagem foi enviada.',
      );
      await screen(site, 'site-contato-enviado');

      // Back in the dashboard's tab, still in the editor: its link to the project.
      await page.bringToFront();
      await page.click(byTestId('project-link'));
      await page.waitForURL(pathIs(`/project/${projectId}`));
      await page.click(byTestId('form-history-link'));
      await page.waitForSelector(byTestId('form-history-page'));
      await page.waitForSelector(`${byTestId('entry-data')}:has-text("torta de limão para sábado")`);
      await screen(page, 'historico-de-formularios');
    },
    JOURNEY_TIMEOUT_MS,
  );
});
