/**
 * The main screens, walked end to end against the real control plane and edge (global-setup.ts):
 *
 * - an owner's data made the way an owner makes it: a site from a seeded template (its blog
 *   collection and posts), one more record, a redirect, the site published and a visitor's
 *   form posted to the edge's `/_forms` on the site's own host;
 * - every main screen opened at 1440×900, in pt-BR and in English, the owner's screens as the
 *   owner and the `/erp` screens as the platform administrator the seed creates;
 * - on each pt-BR screen axe-core (wcag2a, wcag2aa, best-practice) must find no serious or
 *   critical violation;
 * - on each screen the visible text must hold no text of the other language's catalogue and
 *   no raw i18next key (src/testing/language-check.ts); the test's own data is user content;
 *   and no file input shows the browser's own control ("Choose File", in the browser's language):
 *   the kit's FilePicker or an upload button stands in for it;
 * - the business administrator's screens and the dialogs a screen opens (a message of the form
 *   history, the block import, the library's "delete everything", a custom font) walked the same way;
 * - each screen with a table opened at a phone's 390×844: the page never scrolls sideways, a
 *   table wider than its card scrolls inside it.
 *
 * With SCREENS_DIR set (`SCREENS_DIR=../docs/screens/after npm run screens`), each screen's
 * viewport is saved as SCREENS_DIR/<lang>-<screen>.png before its checks run, so a failing
 * check still leaves its screenshot.
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { languageFindings, type ScreenLanguage } from '@/testing/language-check';
import {
  adminCredentials,
  apiGet,
  apiPost,
  axeViolations,
  baseURL,
  businessCredentials,
  byTestId,
  edgeRequest,
  newAccount,
  registerViaApi,
  serious,
  useBrowser,
  type Account,
  type AxeViolation,
} from './support';

const platformDomain = inject('platformDomain');
const screensDir = process.env.SCREENS_DIR ? resolve(process.cwd(), process.env.SCREENS_DIR) : null;
const VIEWPORT = { width: 1440, height: 900 };
const LANGUAGES: ScreenLanguage[] = ['pt-BR', 'en'];
const LANGUAGE_KEY = 'vitrine.language';
const EDGE_WAIT_MS = 15_000;
const READY_TIMEOUT_MS = 20_000;

type Role = 'owner' | 'admin' | 'business';
interface Screen {
  name: string;
  role: Role;
  /** The path, known once the data exists. */
  path: () => string;
  /** What shows once the screen has its data. */
  ready: string;
  /** A dialog the screen opens, walked as a screen of its own: what to press, and what then shows. */
  dialog?: { press: string; ready: string };
}

interface Ids {
  project: number;
  page: number;
  table: number;
  post: number;
}
const ids: Ids = { project: 0, page: 0, table: 0, post: 0 };

const screens: Screen[] = [
  { name: 'projects', role: 'owner', path: () => '/', ready: byTestId('project-item') },
  { name: 'project-new', role: 'owner', path: () => '/project/new', ready: byTestId('template-card') },
  {
    name: 'overview',
    role: 'owner',
    path: () => `/project/${ids.project}`,
    ready: byTestId('project-overview'),
  },
  {
    name: 'settings',
    role: 'owner',
    path: () => `/project/${ids.project}/edit`,
    ready: byTestId('project-settings-form'),
  },
  {
    name: 'editor',
    role: 'owner',
    path: () => `/project/${ids.project}/${ids.page}`,
    ready: byTestId('canvas-iframe'),
  },
  {
    name: 'collections',
    role: 'owner',
    path: () => `/project/${ids.project}/tables`,
    ready: byTestId('collection-row'),
  },
  {
    name: 'records',
    role: 'owner',
    path: () => `/project/${ids.project}/table/${ids.table}/browse`,
    ready: byTestId('records-total'),
  },
  {
    name: 'record-form',
    role: 'owner',
    path: () => `/project/${ids.project}/table/${ids.table}/browse/edit/${ids.post}`,
    ready: byTestId('record-title'),
  },
  {
    name: 'redirects',
    role: 'owner',
    path: () => `/project/${ids.project}/redirects`,
    ready: byTestId('redirect-row'),
  },
  {
    name: 'form-history',
    role: 'owner',
    path: () => `/project/${ids.project}/form-history`,
    ready: byTestId('entry-data'),
  },
  { name: 'account', role: 'owner', path: () => '/user', ready: byTestId('account-plan') },
  {
    name: 'form-history-message',
    role: 'owner',
    path: () => `/project/${ids.project}/form-history`,
    ready: byTestId('entry-data'),
    dialog: { press: byTestId('entry-date'), ready: byTestId('form-entry-dialog') },
  },
  {
    name: 'settings-custom-font',
    role: 'owner',
    path: () => `/project/${ids.project}/edit`,
    ready: byTestId('project-settings-form'),
    dialog: { press: byTestId('add-custom-font'), ready: byTestId('custom-font-modal') },
  },
  { name: 'business-users', role: 'business', path: () => '/users', ready: byTestId('business-users') },
  {
    name: 'business-library',
    role: 'business',
    path: () => '/business/blocks',
    ready: byTestId('business-library'),
  },
  { name: 'erp-blocks', role: 'admin', path: () => '/erp/blocks', ready: byTestId('block-admin') },
  {
    name: 'erp-blocks-import',
    role: 'admin',
    path: () => '/erp/blocks',
    ready: byTestId('block-admin'),
    dialog: { press: byTestId('import-blocks-open'), ready: '[role="dialog"]' },
  },
  {
    name: 'erp-blocks-truncate',
    role: 'admin',
    path: () => '/erp/blocks',
    ready: byTestId('block-admin'),
    dialog: { press: byTestId('truncate'), ready: '[role="alertdialog"]' },
  },
  { name: 'erp-templates', role: 'admin', path: () => '/erp/templates', ready: byTestId('template-admin') },
  { name: 'erp-users', role: 'admin', path: () => '/erp/users', ready: byTestId('user-admin') },
  { name: 'erp-edges', role: 'admin', path: () => '/erp/edges', ready: byTestId('edge-ops-table') },
];

const session = useBrowser();
const owner: Account = newAccount('screens');
const contexts = new Map<string, BrowserContext>();
/** Names and texts the test made or the seed holds: shown as they are in every language. */
const userContent: string[] = [];

/** A signed-in context for `role` whose interface language is `language`. */
async function signedIn(role: Role, language: ScreenLanguage, viewport = VIEWPORT): Promise<BrowserContext> {
  const key = `${role}:${language}:${viewport.width}x${viewport.height}`;
  const existing = contexts.get(key);
  if (existing) return existing;
  const credentials = { owner, admin: adminCredentials(), business: businessCredentials() }[role];
  const context = await session.signedIn(credentials, {
    viewport,
    locale: language,
  });
  // The language switch's own storage: the screen opens in `language`, as a returning user sees it.
  await context.addInitScript(
    ([storageKey, value]) => window.localStorage.setItem(storageKey as string, value as string),
    [LANGUAGE_KEY, language],
  );
  contexts.set(key, context);
  return context;
}

interface Template {
  id: number;
  name: string;
  description: string;
  category: string;
}
interface ProjectDetail {
  id: number;
  name: string;
  slug: string;
  token: string;
  pages: { id: number; name: string; slug: string; table_id: number | null }[];
  tables: { id: number; name: string; slug: string }[];
}
interface DataPage {
  table: { name: string; meta?: Record<string, unknown> };
  fields: { id: number; name: string; required: '1' | '0' }[];
  posts: { id: number; name: string; slug: string }[];
}

/** The owner's data: a site from the Blog template, a record, a redirect, a published site, a form post. */
async function makeOwnerData(): Promise<void> {
  const setup = await session.context();
  try {
    await registerViaApi(setup, owner);
    userContent.push(owner.name, owner.email);
    // Plan names are the spec's product names per currency ("Básico", "Starter"), not interface text.
    const plans = await apiGet<{ name: string }[]>(setup, '/api/plans');
    for (const plan of plans) userContent.push(plan.name);

    const templates = await apiGet<Template[]>(setup, '/api/templates');
    for (const template of templates)
      userContent.push(template.name, template.description, template.category);
    const blog = templates.find((t) => t.category === 'Blog');
    if (!blog) throw new Error('the seed has no Blog template');
    const created = await apiPost<{ id: number }>(setup, `/api/templates/use/${blog.id}`, {
      name: 'Café Aurora',
    });
    // A second, empty site, so the list shows more than one card.
    await apiPost(setup, '/api/projects', { name: 'Ateliê Jacarandá' });
    userContent.push('Café Aurora', 'Ateliê Jacarandá');

    const project = await apiGet<ProjectDetail>(setup, `/api/projects/${created.id}`);
    userContent.push(project.slug, `${project.slug}.${platformDomain}`);
    for (const p of project.pages) userContent.push(p.name, p.slug);
    for (const t of project.tables) userContent.push(t.name, t.slug);
    const table = project.tables[0];
    const home = project.pages.find((p) => p.slug === '/') ?? project.pages[0];
    if (!table || !home) throw new Error('the Blog template made no collection or no page');

    const before = await apiGet<DataPage>(setup, `/api/data/${table.id}?page=1&limit=1`);
    const recipe = 'Polvilho, queijo canastra e leite, assados até dourar.';
    await apiPost(setup, '/api/posts', {
      table_id: table.id,
      name: 'Pão de queijo da vovó',
      slug: 'pao-de-queijo',
      fields: before.fields.filter((f) => f.required === '1').map((f) => ({ field_id: f.id, value: recipe })),
    });
    userContent.push('Pão de queijo da vovó', 'pao-de-queijo', recipe);
    const data = await apiGet<DataPage>(setup, `/api/data/${table.id}?page=1&limit=50`);
    for (const post of data.posts) userContent.push(post.name, post.slug);
    for (const field of data.fields) userContent.push(field.name);
    for (const value of Object.values(data.table.meta ?? {}))
      if (typeof value === 'string') userContent.push(value);
    const post = data.posts.find((p) => p.slug === 'pao-de-queijo') ?? data.posts[0];
    if (!post) throw new Error('no record to open');

    await apiPost(setup, '/api/redirects', {
      project_id: project.id,
      from: '/cardapio-antigo',
      to: '/cardapio',
    });
    userContent.push('/cardapio-antigo', '/cardapio');

    await apiPost(setup, `/api/publish_v2/${project.id}`, {
      project_id: project.id,
      token: project.token,
    });
    // A visitor's message, posted to the published site once the edge has it (change feed).
    const form = new URLSearchParams({
      nome: 'Ana Souza',
      email: 'ana@example.com',
      mensagem: 'Vocês abrem aos domingos?',
    });
    userContent.push(
      'nome',
      'email',
      'mensagem',
      'Ana Souza',
      'ana@example.com',
      'Vocês abrem aos domingos?',
    );
    const deadline = Date.now() + EDGE_WAIT_MS;
    let last = { status: 0, body: '' };
    while (Date.now() < deadline) {
      last = await edgeRequest(project.slug, 'POST', '/_forms', form.toString());
      if (last.status < 400) break;
      await new Promise((done) => setTimeout(done, 250));
    }
    if (last.status >= 400)
      throw new Error(`the edge refused the form: ${last.status} ${last.body.slice(0, 500)}`);

    ids.project = project.id;
    ids.page = home.id;
    ids.table = table.id;
    ids.post = post.id;
  } finally {
    await setup.close();
  }
}

/** The administrator's screens list seeded data: it is user content too. */
async function collectAdminContent(): Promise<void> {
  const admin = await signedIn('admin', 'pt-BR');
  const library = await apiGet<{ categories: { name: string; blocks: { name: string; uid: string }[] }[] }>(
    admin,
    '/api/blocks',
  );
  for (const category of library.categories) {
    userContent.push(category.name);
    for (const block of category.blocks) userContent.push(block.name, block.uid);
  }
  const users = await apiGet<{ name: string; email: string }[]>(admin, '/api/users');
  for (const user of users) userContent.push(user.name, user.email);
  const templates = await apiGet<{ name: string; category: string }[]>(admin, '/erp/templateList');
  for (const template of templates) userContent.push(template.name, template.category);
  userContent.push(inject('adminEmail'), 'edge-e2e');
  // The business's members and blocks, whatever the suites before this one made.
  const business = await signedIn('business', 'pt-BR');
  const members = await apiGet<{ name: string; email: string }[]>(business, '/api/business/users');
  for (const member of members) userContent.push(member.name, member.email);
  const blocks = await apiGet<{ name: string; keywords?: string }[]>(business, '/api/business/blocks');
  for (const block of blocks) userContent.push(block.name, block.keywords ?? '');
  userContent.push(inject('businessEmail'), 'Agência E2E');
}

async function open(page: Page, screen: Screen): Promise<void> {
  await page.goto(screen.path());
  await page.waitForSelector(screen.ready, { timeout: READY_TIMEOUT_MS });
  // Whatever the screen still fetches has landed: no request counted by the global spinner.
  await page.waitForSelector(byTestId('global-spinner'), { state: 'detached', timeout: READY_TIMEOUT_MS });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  if (screen.name === 'editor') {
    const frame = await (await page.$(screen.ready))?.contentFrame();
    await frame?.waitForLoadState('load');
  }
  if (screen.dialog) {
    await page.locator(screen.dialog.press).first().click();
    await page.waitForSelector(screen.dialog.ready, { timeout: READY_TIMEOUT_MS });
  }
}

/** File inputs a person sees as the browser draws them ("Choose File" / "Escolher arquivo"). */
function nativeFileInputs(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLInputElement>('input[type="file"]')]
      .filter((input) => {
        const box = input.getBoundingClientRect();
        const style = getComputedStyle(input);
        return box.width > 1 && box.height > 1 && style.visibility !== 'hidden' && style.opacity !== '0';
      })
      .map((input) => input.id || input.name || input.outerHTML.slice(0, 80)),
  );
}

function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map(
      (v) => `[${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n    ${v.targets.slice(0, 8).join('\n    ')}`,
    )
    .join('\n');
}

beforeAll(async () => {
  await makeOwnerData();
  await collectAdminContent();
  if (screensDir) await mkdir(screensDir, { recursive: true });
}, 120_000);

describe.each(LANGUAGES)('main screens in %s', (language) => {
  it.each(screens.map((screen) => [screen.name, screen] as const))('%s', async (_, screen) => {
    const context = await signedIn(screen.role, language);
    const page = await context.newPage();
    try {
      await open(page, screen);
      if (screensDir)
        await page.screenshot({ path: join(screensDir, `${language}-${screen.name}.png`), fullPage: false });

      expect.soft(await page.evaluate(() => document.documentElement.lang), 'the <html lang>').toBe(language);

      const text = await page.evaluate(() => document.body.innerText);
      const findings = languageFindings(text, language, userContent);
      expect
        .soft(
          findings.map((f) => `${f.kind}: ${f.text}`),
          `text of the other language or raw keys on ${screen.name} (${language})`,
        )
        .toEqual([]);

      expect.soft(await nativeFileInputs(page), `native file inputs on ${screen.name}`).toEqual([]);

      if (language === 'pt-BR') {
        const violations = await axeViolations(page);
        const blocking = violations.filter(serious);
        if (violations.length > blocking.length)
          console.info(
            `axe, ${screen.name}: minor/moderate\n${describeViolations(violations.filter((v) => !serious(v)))}`,
          );
        expect
          .soft(
            blocking.map((v) => `[${v.impact}] ${v.id}: ${v.help}: ${v.targets.join(' | ')}`),
            `axe on ${screen.name}:\n${describeViolations(blocking)}`,
          )
          .toEqual([]);
      }
    } finally {
      await page.close();
    }
  });
});

/** A phone's viewport: the tables must fit the page there. */
const PHONE = { width: 390, height: 844 };

interface TableScreen extends Screen {
  /** Its table is surely wider than a phone (many columns, dates kept on one line): it must scroll. */
  mustScroll: boolean;
  /** Its table keeps only what a phone needs (the rest opens from the row): it must fit, unscrolled. */
  mustFit?: boolean;
}

const byName = (name: string): Screen => {
  const found = screens.find((screen) => screen.name === name);
  if (!found) throw new Error(`no screen ${name}`);
  return found;
};

const tableScreens: TableScreen[] = [
  { ...byName('records'), mustScroll: true },
  { ...byName('redirects'), mustScroll: false },
  // On a phone the message column is left to the opened message: the date shows the row is in.
  { ...byName('form-history'), ready: byTestId('entry-date'), mustScroll: false, mustFit: true },
  {
    name: 'business-users',
    role: 'business',
    path: () => '/users',
    ready: byTestId('business-users-table'),
    mustScroll: false,
  },
  {
    name: 'business-library',
    role: 'business',
    path: () => '/business/blocks',
    ready: byTestId('business-library-table'),
    mustScroll: false,
  },
  { ...byName('erp-blocks'), ready: byTestId('blocks-table'), mustScroll: false },
  { ...byName('erp-templates'), ready: byTestId('template-admin-table'), mustScroll: false },
  { ...byName('erp-users'), ready: byTestId('user-admin-table'), mustScroll: false },
];

interface TableLayout {
  /** How wide the document is, and the window. */
  pageWidth: number;
  windowWidth: number;
  tables: {
    testId: string | null;
    /** The table's own scroll box (null: none, the table sits in the page's flow). */
    overflowX: string | null;
    tableWidth: number;
    boxWidth: number;
    /** How far the box scrolled when asked to scroll to its end. */
    scrolled: number;
  }[];
}

function tableLayout(page: Page): Promise<TableLayout> {
  return page.evaluate(() => {
    const tables = [...document.querySelectorAll<HTMLTableElement>('table.data-table')].map((table) => {
      const box = table.closest<HTMLElement>('.table-scroll');
      let scrolled = 0;
      if (box) {
        box.scrollLeft = box.scrollWidth;
        scrolled = box.scrollLeft;
        box.scrollLeft = 0;
      }
      return {
        testId: table.getAttribute('data-testid'),
        overflowX: box ? getComputedStyle(box).overflowX : null,
        tableWidth: Math.ceil(table.getBoundingClientRect().width),
        boxWidth: box ? box.clientWidth : 0,
        scrolled,
      };
    });
    return { pageWidth: document.documentElement.scrollWidth, windowWidth: window.innerWidth, tables };
  });
}

describe('tables at a phone width (390×844)', () => {
  const cleanup: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    // The business's screens need a member and a block of their own to show a table.
    const business = await signedIn('business', 'pt-BR', PHONE);
    const member = newAccount('screens-member');
    await apiPost(business, '/api/business/users', {
      ...member,
      is_business_admin: false,
      permissions: { all_projects: true },
    });
    const block = await apiPost<{ id: number }>(business, '/api/business/blocks', {
      name: `Faixa de avisos ${member.email.slice(4, 20)}`,
      keywords: 'aviso, faixa',
      template: '<section class="aviso">Aviso</section>',
    });
    // Other suites expect the business's library empty.
    cleanup.push(async () => {
      const deleted = await business.request.delete(`${baseURL}/api/business/blocks/${block.id}`);
      if (!deleted.ok()) throw new Error(`delete the business block: ${deleted.status()}`);
    });
  });

  afterAll(async () => {
    for (const undo of cleanup) await undo();
  });

  it.each(tableScreens.map((screen) => [screen.name, screen] as const))('%s', async (_, screen) => {
    const context = await signedIn(screen.role, 'pt-BR', PHONE);
    const page = await context.newPage();
    try {
      await open(page, screen);
      const layout = await tableLayout(page);
      expect(layout.windowWidth).toBe(PHONE.width);
      expect(layout.tables.length, 'tables on the screen').toBeGreaterThan(0);
      expect(layout.pageWidth, 'the page scrolls sideways').toBeLessThanOrEqual(layout.windowWidth);
      for (const table of layout.tables) {
        expect(table.overflowX, `${table.testId}: its own scroll box`).toBe('auto');
        // Wider than its box: the box scrolls to show the rest (and the page does not).
        if (table.tableWidth > table.boxWidth)
          expect(table.scrolled, `${table.testId} scrolls`).toBeGreaterThan(0);
      }
      // With a row chosen, the bulk actions' bar must fit the phone too.
      const rowBox = page.locator('table.data-table tbody input[type="checkbox"]').first();
      if ((await rowBox.count()) > 0) {
        await rowBox.check();
        const chosen = await tableLayout(page);
        expect(chosen.pageWidth, 'the page scrolls sideways with a row chosen').toBeLessThanOrEqual(
          chosen.windowWidth,
        );
      }
      if (screen.mustFit)
        for (const table of layout.tables)
          expect(table.tableWidth, `${table.testId} fits the phone`).toBeLessThanOrEqual(table.boxWidth);
      if (screen.mustScroll)
        expect(
          layout.tables.some((table) => table.scrolled > 0),
          'a table this wide scrolls inside its card',
        ).toBe(true);
    } finally {
      await page.close();
    }
  });
});
