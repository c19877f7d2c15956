/**
 * A new owner's journey, in pt-BR, through the real dashboard and then the published site on
 * the edge, in one Chromium (issues 22 and 41):
 *
 * 1. register (the register screen);
 * 2. a site from the bakery template ("Padaria Grão Dourado") made as "Doces da Bruna";
 * 3. the site identity (description, WhatsApp, telephone, e-mail, address, hours, Instagram) and
 *    the theme (a raspberry primary colour) set on the identity screen;
 * 4. a spreadsheet as Brazilian Excel saves it (`e2e/fixtures/produtos-excel-pt-br.csv`:
 *    Windows-1252, semicolons, prices `59`, `59,90` and `1.234,56`) imported into the template's
 *    "Produtos" after its preview, which shows each price as it will be stored;
 * 5. a "Grade de produtos" added on the home page and bound to "Produtos" by choosing the
 *    collection only: its fields are mapped by the dashboard, not by hand; the canvas fits the
 *    window at 1440 and 1280 px;
 * 6. publish (the publish dialog).
 *
 * Then the visitor: a breadth-first crawl of every same-site link answers 200; the template's
 * business name is on no page and the owner's is on every one (text, title, description and
 * share tags); the imported prices show as typed; every WhatsApp link opens `wa.me` with the
 * owner's number; the contact form is sent and reaches the form history. Last, the owner on a
 * 390 px phone: the site, a form message read whole, and a product's price edited, live at once.
 *
 * Every step goes through the interface, as the owner and the visitor would; the test reads
 * nothing from the API and calls it for nothing.
 *
 * With JOURNEY_SCREENS set (`JOURNEY_SCREENS=../docs/screens/journey npm run journey`), each
 * step's viewport is saved as JOURNEY_SCREENS/NN-step.png (1440×900) or NN-step-390.png (the
 * phone, 390×844); otherwise nothing is written.
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import {
  byTestId,
  confirmPublish,
  edgeRaw,
  expectCanvasFitsWindow,
  newAccount,
  pathIs,
  useBrowser,
} from './support';

const screensDir = process.env.JOURNEY_SCREENS ? resolve(process.cwd(), process.env.JOURNEY_SCREENS) : null;
const DESKTOP = { width: 1440, height: 900 };
const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const JOURNEY_TIMEOUT_MS = 240_000;
/** The bakery template's own business, as the gallery names it. */
const BAKERY = 'Padaria Grão Dourado';
/** What of the template's name must show on no page of the owner's site. */
const TEMPLATE_NAMES = [BAKERY, 'Grão Dourado'];
const BRAND = 'Doces da Bruna';
const WHATSAPP_TYPED = '(11) 98765-4321';
const WHATSAPP_URL = 'https://wa.me/5511987654321';
const FIXTURE = resolve(__dirname, 'fixtures/produtos-excel-pt-br.csv');
/** The fixture's products, their price as the spreadsheet has it, and as the site shows it. */
const IMPORTED = [
  { name: 'Pão de queijo da Bruna', typed: '59', shown: 'R$ 59,00' },
  { name: 'Bolo de maçã com canela', typed: '59,90', shown: 'R$ 59,90' },
  { name: 'Cesta de café especial', typed: '1.234,56', shown: 'R$ 1.234,56' },
];
/** A price as the site shows it: "R$ 42,00", "R$ 1.234,56" — never raw cents. */
const FORMATTED_PRICE = /^R\$\s\d{1,3}(\.\d{3})*,\d{2}$/;

const session = useBrowser();
let step = 0;

/** Saves the viewport as NN-name.png (NN-name-390.png on a phone) when JOURNEY_SCREENS is set. */
async function screen(page: Page, name: string): Promise<void> {
  step += 1;
  if (!screensDir) return;
  await mkdir(screensDir, { recursive: true });
  const phone = (page.viewportSize()?.width ?? DESKTOP.width) <= PHONE.width ? '-390' : '';
  await page.screenshot({ path: join(screensDir, `${String(step).padStart(2, '0')}-${name}${phone}.png`) });
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

interface Crawled {
  path: string;
  /** The whole document as served, head included (title, description, share tags). */
  html: string;
  /** What the visitor reads. */
  text: string;
  bodyMargin: string;
  /** Every link that opens WhatsApp. */
  whatsapp: string[];
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
      html: (await response?.text()) ?? '',
      text: await page.evaluate(() => document.body.innerText),
      bodyMargin: await page.evaluate(() => getComputedStyle(document.body).margin),
      // Direct, or through the site's /_go (its target percent-encoded: `u=https%3A%2F%2Fwa%2Eme…`).
      whatsapp: await page.$$eval('a[href*="wa.me"], a[href*="whatsapp"], a[href*="wa%2Eme"]', (links) =>
        links.map((a) => (a as HTMLAnchorElement).href),
      ),
    });
    const hrefs = await page.$$eval('a[href]', (links) => links.map((a) => (a as HTMLAnchorElement).href));
    for (const href of hrefs) {
      const url = new URL(href);
      // `/_go` is a tap on a WhatsApp, phone or e-mail link, which leaves the site.
      if (url.origin !== origin || url.pathname === '/_go') continue;
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
    'makes the bakery template their own shop, imports an Excel sheet, publishes, and the visitor sees only their name',
    async () => {
      const context = await session.context({ viewport: DESKTOP, locale: 'pt-BR' });
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
      // A first owner has no site yet: the list leads to the templates.
      await page.waitForSelector(byTestId('projects-empty'));
      await screen(page, 'primeiro-passo');

      // 2. The bakery template, as "Doces da Bruna".
      await page.click(byTestId('new-project-link'));
      await page.waitForSelector(byTestId('template-card'));
      await page.fill(byTestId('project-name-input'), BRAND);
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

      // 3. The identity (the name is already the site's) and the theme.
      await page.click(byTestId('identity-link'));
      await page.waitForSelector(byTestId('identity-screen'));
      expect(await page.inputValue('#identity-name')).toBe(BRAND);
      await page.fill(
        '#identity-description',
        'Doces, bolos e pães de queijo feitos em casa, sob encomenda.',
      );
      await page.fill('#identity-whatsapp', WHATSAPP_TYPED);
      await page.fill('#identity-phone', '(11) 3333-4444');
      await page.fill('#identity-email', 'contato@docesdabruna.com.br');
      await page.fill('#identity-address', 'Rua das Flores, 120 – São Paulo, SP');
      await page.fill('#identity-hours', 'Seg a sex, 8h–18h\nSáb, 8h–12h');
      await page.fill('#identity-social-instagram', 'https://instagram.com/docesdabruna');
      const primary = page.locator(byTestId('theme-primary-hex'));
      await primary.fill('#9d174d');
      await primary.blur();
      await page.waitForSelector(`${byTestId('theme-primary')}[data-value="#9d174d"]`);
      // The contrast of each pair is worked out as the colours are chosen.
      expect(await page.textContent(byTestId('contrast'))).toMatch(/\d+(,\d+)?:1/);
      await screen(page, 'identidade-e-tema');
      await page.click(byTestId('identity-save'));
      await page.waitForSelector(`${byTestId('toast-success')}:has-text("Identidade e tema salvos")`);

      // 4. The products from Brazilian Excel's semicolon CSV, previewed before anything is written.
      await page.click('.breadcrumbs a:has-text("Doces da Bruna")');
      await page.waitForURL(pathIs(`/project/${projectId}`));
      await page.click(byTestId('collections-link'));
      await page.waitForSelector(byTestId('collections-table'));
      await page.click(`${byTestId('collection-row')} a:text-is("Produtos")`);
      await page.waitForSelector(byTestId('records-table'));
      const recordsPath = new URL(page.url()).pathname;
      const before = Number(await page.getAttribute(byTestId('records-total'), 'data-total'));
      await page.locator(byTestId('import-input')).setInputFiles(FIXTURE);
      await page.waitForSelector(byTestId('import-preview-table'));
      expect(await page.textContent(byTestId('import-preview-read'))).toMatch(/windows-1252/i);
      expect(await page.textContent(byTestId('import-count-insert'))).toContain(String(IMPORTED.length));
      expect(await page.textContent(byTestId('import-count-refused'))).toContain('0');
      const rows = await page.$$eval(`${byTestId('import-preview-row')}`, (trs) =>
        trs.map((tr) => (tr as HTMLElement).innerText),
      );
      for (const product of IMPORTED) {
        const row = rows.find((text) => text.includes(product.name));
        expect(row, product.name).toBeDefined();
        expect(row).toContain(product.shown);
      }
      await screen(page, 'previa-da-planilha');
      await page.click(byTestId('import-confirm'));
      await page.waitForSelector(`${byTestId('records-total')}[data-total="${before + IMPORTED.length}"]`);
      for (const product of IMPORTED) {
        await page.waitForSelector(`${byTestId('record-title')}:text-is("${product.name}")`);
      }
      await screen(page, 'produtos-importados');

      // 5. The home page: a product grid bound by choosing the collection, nothing else.
      await page.click('.breadcrumbs a:has-text("Doces da Bruna")');
      await page.waitForURL(pathIs(`/project/${projectId}`));
      await page.click(byTestId('edit-project-link'));
      let frame = await canvas(page);
      await frame.waitForSelector('.vt-hd');
      await expectCanvasFitsWindow(page, DESKTOP.width);
      const grid = await addBlock(page, frame, 'Grade de produtos');
      await page.fill(`${byTestId('var-title')} input`, 'Novidades da Bruna');
      await page.selectOption(`${byTestId('var-products')} ${byTestId('list-table')}`, 'produtos');
      // The dashboard maps the collection's fields by type and name.
      // (it reads the collection's fields first, then fills the selects).
      await page.waitForFunction(
        (selector) => document.querySelector<HTMLSelectElement>(selector)?.value === 'preco',
        byTestId('list-dbfield-price'),
      );
      await frame.waitForFunction(
        ([uid, texts]) =>
          texts.every((text) =>
            document.querySelector(`[data-vt-uid="${uid}"]`)?.textContent?.includes(text),
          ),
        [grid, IMPORTED.flatMap((product) => [product.name, product.shown])] as const,
      );
      await frame.evaluate((uid) => document.querySelector(`[data-vt-uid="${uid}"]`)?.scrollIntoView(), grid);
      await screen(page, 'grade-ligada');
      await save(page);
      await page.setViewportSize(LAPTOP);
      frame = await canvas(page);
      await expectCanvasFitsWindow(page, LAPTOP.width);
      await page.setViewportSize(DESKTOP);

      // 6. Publish.
      await page.click(byTestId('deploy-button'));
      await page.waitForSelector(`${byTestId('publish-modal')}[role="dialog"]`);
      await screen(page, 'publicar');
      const live = await confirmPublish(page);
      await screen(page, 'publicado');
      const origin = `http://${slug}.${inject('platformDomain')}:${new URL(inject('edgeURL')).port}`;
      expect(new URL((await live.getAttribute('href')) ?? '').origin).toBe(origin);
      await page.click(byTestId('publish-done'));

      // 7. The visitor: every page is the owner's.
      const site = await context.newPage();
      const crawled = await crawl(site, origin);
      const paths = crawled.map((c) => c.path);
      expect(paths).toEqual(expect.arrayContaining(['/', '/produtos', '/sobre', '/contato']));
      for (const c of crawled) {
        for (const name of TEMPLATE_NAMES) expect(c.html, `${name} on ${c.path}`).not.toContain(name);
        expect(c.text, `${BRAND} on ${c.path}`).toContain(BRAND);
        expect(c.html, `<title> of ${c.path}`).toMatch(new RegExp(`<title>[^<]*${BRAND}[^<]*</title>`));
        expect(c.html, `og:site_name of ${c.path}`).toContain(`property="og:site_name" content="${BRAND}"`);
        expect(c.bodyMargin, `body margin on ${c.path}`).toBe('0px');
        for (const href of c.whatsapp) {
          // A tap goes through the site's signed /_go (the analytics count it), which sends the
          // visitor on to WhatsApp: follow it to where it leads.
          const link = new URL(href);
          const target =
            link.pathname === '/_go'
              ? String((await edgeRaw(slug, 'GET', link.pathname + link.search)).headers.location)
              : href;
          expect(target, `WhatsApp link on ${c.path}`).toMatch(new RegExp(`^${WHATSAPP_URL}`));
        }
      }
      expect(crawled.flatMap((c) => c.whatsapp).length).toBeGreaterThan(0);
      // The copyright is this year's, under the owner's name.
      const footer = crawled[0]?.text ?? '';
      expect(footer).toContain(`© ${new Date().getFullYear()} ${BRAND}`);

      // The imported prices, as the spreadsheet had them, on the home page's new grid.
      await site.goto(`${origin}/`);
      const novidades = site.locator('.vt-pd:has(.vt-pd-title:text-is("Novidades da Bruna"))');
      await novidades.scrollIntoViewIfNeeded();
      await screen(site, 'site-inicio');
      const cards = await novidades.locator('.vt-pd-card').evaluateAll((els) =>
        els.map((el) => ({
          name: el.querySelector('.vt-pd-t')?.textContent?.trim() ?? '',
          price: el.querySelector('.vt-pd-price')?.textContent?.trim() ?? '',
        })),
      );
      for (const product of IMPORTED) {
        expect(cards).toContainEqual({ name: product.name, price: product.shown });
      }
      const prices = await site.$$eval('.vt-pd-price', (els) =>
        els.map((el) => el.textContent?.trim() ?? ''),
      );
      for (const price of prices) expect(price).toMatch(FORMATTED_PRICE);
      await site.goto(`${origin}/produtos`);
      await screen(site, 'site-produtos');

      // The contact form: sent, confirmed, and in the dashboard's form history.
      const message = `Quero encomendar um bolo de maçã para sábado (${owner.email}).`;
      await site.goto(`${origin}/contato`);
      const form = site.locator('form').first();
      await form.getByLabel('Nome', { exact: true }).fill('Ana Visitante');
      await form.getByLabel('E-mail', { exact: true }).fill('ana.visitante@example.com');
      await form.locator('textarea').first().fill(message);
      // The edge answers the post with a 303 to the page with ?enviado=1, which shows the
      // confirmation (shared/src/form_sent.rs).
      const [posted] = await Promise.all([
        site.waitForResponse(
          (r) => new URL(r.url()).pathname === '/_forms' && r.request().method() === 'POST',
        ),
        form.locator('button[type="submit"], input[type="submit"]').first().click(),
      ]);
      expect(posted.status()).toBe(303);
      await site.waitForURL((url) => url.pathname === '/contato' && url.searchParams.get('enviado') === '1');
      expect(await site.textContent('#vitrine-form-sent[role="status"]')).toBe(
        'Obrigado! Sua mensagem foi enviada.',
      );
      await screen(site, 'site-contato-enviado');

      await page.bringToFront();
      await page.goto(`/project/${projectId}`);
      await page.click(byTestId('form-history-link'));
      await page.waitForSelector(byTestId('form-history-page'));
      await page.waitForSelector(`${byTestId('entry-data')}:has-text("bolo de maçã para sábado")`);
      await screen(page, 'historico-de-formularios');

      // 8. On a 390 px phone: the site, the message read whole, a price edited.
      const phone = await session.context({
        viewport: PHONE,
        locale: 'pt-BR',
        isMobile: true,
        hasTouch: true,
        storageState: await context.storageState(),
      });
      const mobile = await phone.newPage();
      await mobile.goto(`${origin}/`);
      await screen(mobile, 'site-inicio');
      expect(await mobile.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        PHONE.width,
      );
      await mobile.goto(`${origin}/produtos`);
      await screen(mobile, 'site-produtos');
      await mobile.goto(`/project/${projectId}/form-history`);
      await mobile.waitForSelector(byTestId('form-history-page'));
      await mobile.locator(byTestId('entry-date')).first().click();
      const opened = mobile.locator(byTestId('form-entry-dialog'));
      await opened.waitFor();
      expect(await opened.innerText()).toContain(message);
      await screen(mobile, 'mensagem-inteira');
      await mobile.keyboard.press('Escape');
      // A record edited on the phone: the price of a product, saved, live on the site.
      await mobile.goto(recordsPath);
      await mobile.click(`${byTestId('record-title')}:text-is("${IMPORTED[0]?.name}")`);
      await mobile.waitForSelector(byTestId('record-form'));
      await mobile.fill(byTestId('field-preco'), '6500');
      expect(await mobile.inputValue(byTestId('field-preco'))).toBe('R$ 65,00');
      await screen(mobile, 'editar-produto');
      expect(await mobile.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        PHONE.width,
      );
      await mobile.click(byTestId('record-save'));
      await mobile.waitForURL(pathIs(recordsPath));
      // Records are live: the edge shows the new price without a publish (its cache follows the
      // change feed), so the page is read again until it does.
      const priced = async () => {
        await mobile.goto(`${origin}/`);
        return mobile.$$eval(
          '.vt-pd-card',
          (cards, name) =>
            cards.some(
              (card) =>
                card.querySelector('.vt-pd-t')?.textContent?.trim() === name &&
                card.querySelector('.vt-pd-price')?.textContent?.trim() === 'R$ 65,00',
            ),
          IMPORTED[0]?.name,
        );
      };
      await expect.poll(priced, { timeout: 20_000, interval: 500 }).toBe(true);
      await phone.close();
    },
    JOURNEY_TIMEOUT_MS,
  );
});
