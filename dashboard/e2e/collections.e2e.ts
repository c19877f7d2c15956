/**
 * Collections end to end: a collection with one field of each of the 18 types, a record
 * created, edited and deleted through the form, a 1,000-row CSV import, CSV/JSON export, bulk
 * delete, and the client admin panel (/admin?token=…) with a valid and a wrong token.
 * The scenarios build on each other, so they share one signed-in browser context.
 */
import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIELD_TYPES, type FieldType } from '@/features/collections/types';
import {
  acceptConfirmation,
  apiGet,
  apiPost,
  baseURL,
  byTestId,
  collectionMeta,
  createProjectViaApi,
  pathIs,
  useBrowser,
} from './support';

const LONG = 180_000;

/** Field "F <type>" gets the slug "f-<type>" and its editor the test id "field-f-<type>". */
const fieldName = (type: FieldType) => `F ${type}`;
const fieldSlug = (type: FieldType) => `f-${type}`;
const editor = (type: FieldType) => byTestId(`field-${fieldSlug(type)}`);

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const png = (name: string) => ({ name, mimeType: 'image/png', buffer: PNG });
const txt = (name: string) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(`file ${name}\n`) });

interface ApiTable {
  id: number;
  fields: { id: number; slug: string; type: FieldType }[];
}
interface ApiPost {
  id: number;
  name: string;
  slug: string;
  fields: { field_id: number; value: unknown }[];
}

async function rowCount(page: Page, selector: string): Promise<number> {
  return page.locator(selector).count();
}

async function waitForCount(page: Page, selector: string, count: number): Promise<void> {
  await page.waitForFunction(([css, expected]) => document.querySelectorAll(css).length === expected, [
    selector,
    count,
  ] as const);
}

async function waitForTotal(page: Page, total: number): Promise<void> {
  await page.waitForSelector(`${byTestId('records-total')}[data-total="${total}"]`);
}

const session = useBrowser();
let owner: BrowserContext;
let page: Page;
let projectId: number;
let tableId: number;
let authorsTableId: number;
let otherProjectTableId: number;

beforeAll(async () => {
  owner = await session.registered('collections', { acceptDownloads: true });
  projectId = await createProjectViaApi(owner, 'E2E Collections');

  // The relation target, with one record to pick.
  const authors = await apiPost<ApiTable>(owner, '/api/tables', {
    project_id: projectId,
    name: 'Autores',
    slug: 'autores',
    meta: collectionMeta('Autores', 'Autor'),
  });
  authorsTableId = authors.id;
  await apiPost<ApiPost>(owner, '/api/posts', {
    table_id: authors.id,
    name: 'Machado',
    slug: 'machado',
    fields: [],
  });

  // Another project of the same owner: the client panel must not reach it.
  const otherProjectId = await createProjectViaApi(owner, 'E2E Other');
  const otherTable = await apiPost<ApiTable>(owner, '/api/tables', {
    project_id: otherProjectId,
    name: 'Segredos',
    slug: 'segredos',
    meta: collectionMeta('Segredos', 'Segredo'),
  });
  otherProjectTableId = otherTable.id;

  page = await owner.newPage();
});

describe('collections end to end', () => {
  it(
    'creates a collection with one field of each of the 18 types and reorders them',
    async () => {
      await page.goto(`/project/${projectId}/tables`);
      await page.waitForSelector(byTestId('collections-table'));
      await page.click(byTestId('new-collection'));
      await page.waitForURL(pathIs(`/project/${projectId}/table/new`));

      // Name, plural and singular are required.
      await page.click(byTestId('collection-save'));
      await page.waitForSelector('.field-error');
      await page.fill(byTestId('collection-name'), 'Imóveis');
      await page.locator(byTestId('collection-name')).blur();
      expect(await page.inputValue(byTestId('collection-slug'))).toBe('imoveis');
      await page.fill(byTestId('collection-plural'), 'Imóveis');
      await page.fill(byTestId('collection-singular'), 'Imóvel');
      await page.click(byTestId('collection-save'));
      await page.waitForURL((url) => /^\/project\/\d+\/table\/\d+\/fields$/.test(url.pathname));
      tableId = Number(new URL(page.url()).pathname.split('/')[4]);

      for (const [index, type] of FIELD_TYPES.entries()) {
        await page.click(byTestId('add-field'));
        await page.waitForSelector(byTestId('field-modal'));
        await page.fill(byTestId('field-name'), fieldName(type));
        await page.selectOption(byTestId('field-type'), type);
        if (type === 'text') await page.check(byTestId('field-required'));
        if (type === 'relation') await page.selectOption(byTestId('field-relation'), String(authorsTableId));
        if (type === 'select' || type === 'multiselect' || type === 'image-select') {
          const options = type === 'image-select' ? ['Azul', 'Verde'] : ['A', 'B', 'C'];
          for (const option of options) {
            await page.click(byTestId('field-option-add'));
            await page.locator(byTestId('field-option-name')).last().fill(option);
            if (type === 'image-select') {
              await page
                .locator(byTestId('field-option-image'))
                .last()
                .setInputFiles(png(`${option}.png`));
              await page.locator('.option-thumb').nth(options.indexOf(option)).waitFor();
            }
          }
        }
        await page.click(byTestId('field-save'));
        await page.waitForSelector(byTestId('field-modal'), { state: 'detached' });
        await waitForCount(page, byTestId('field-row'), index + 1);
      }
      const types = await page.$$eval(byTestId('field-row'), (rows) =>
        rows.map((row) => row.getAttribute('data-field-type')),
      );
      expect(types).toEqual([...FIELD_TYPES]);

      // Keyboard drag: move the first field one place down; Save order appears and persists it.
      expect(await page.$(byTestId('save-order'))).toBeNull();
      // A keyboard drag can be swallowed when the browser is busy (the drop lands before the
      // sensor has measured its neighbours); try it again, at most three times.
      for (let attempt = 1; ; attempt += 1) {
        const handle = page.locator(byTestId('field-drag')).first();
        await handle.focus();
        await page.keyboard.press('Space');
        await page.waitForSelector('.field-row.is-dragging');
        await page.keyboard.press('ArrowDown');
        // Drop only once the neighbour has made room (it moves up when the lifted row is over
        // it, which is what the drop reads), not merely when the lifted row has moved.
        await page.waitForFunction(() => {
          const rows = document.querySelectorAll<HTMLElement>('.field-row');
          return (
            /translate3d\(0px, [1-9]/.test(rows[0]?.style.transform ?? '') &&
            /translate3d\(0px, -[1-9]/.test(rows[1]?.style.transform ?? '')
          );
        });
        await page.keyboard.press('Space');
        await page.waitForSelector('.field-row.is-dragging', { state: 'detached' });
        const saved = await page
          .waitForSelector(byTestId('save-order'), { timeout: 3_000 })
          .catch(() => null);
        if (saved || attempt === 3) break;
      }
      await page.click(byTestId('save-order'));
      await page.waitForSelector(byTestId('save-order'), { state: 'detached' });
      const table = await apiGet<ApiTable>(owner, `/api/tables/${tableId}`);
      expect(table.fields.slice(0, 2).map((field) => field.type)).toEqual(['string', 'text']);
    },
    LONG,
  );

  it(
    'creates, edits and deletes a record with every editor',
    async () => {
      await page.goto(`/project/${projectId}/table/${tableId}/browse`);
      await page.waitForSelector(byTestId('records-empty'));
      await page.click(byTestId('new-record'));
      await page.waitForURL(pathIs(`/project/${projectId}/table/${tableId}/browse/new`));
      await page.waitForSelector(byTestId('record-breadcrumbs'));

      // Required fields are listed inline and nothing is sent.
      const posted: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/posts')
          posted.push(request.url());
      });
      await page.click(byTestId('record-save'));
      await page.waitForSelector(byTestId('record-missing'));
      const missing = await page.textContent(byTestId('record-missing'));
      expect(missing).toContain('Por favor, preencha todos os campos obrigatórios:');
      expect(missing).toContain(fieldName('text'));
      expect(posted).toEqual([]);

      await page.fill(byTestId('record-title'), 'Casa Azul à Venda');
      await page.locator(byTestId('record-title')).blur();
      expect(await page.inputValue(byTestId('record-slug'))).toBe('casa-azul-a-venda');

      await page.fill(editor('text'), 'Texto obrigatório');
      await page.fill(editor('string'), 'Linha');
      await page.fill(editor('textarea'), 'Várias\nlinhas');
      await page.click(editor('wysiwyg'));
      await page.keyboard.type('Olá rico');
      await page.locator(byTestId(`field-${fieldSlug('image')}-upload`)).setInputFiles(png('capa.png'));
      await page.waitForSelector(byTestId(`field-${fieldSlug('image')}-preview`));
      await page
        .locator(byTestId(`field-${fieldSlug('gallery')}-upload`))
        .setInputFiles([png('g1.png'), png('g2.png')]);
      await waitForCount(
        page,
        `${byTestId(`field-${fieldSlug('gallery')}-list`)} ${byTestId('file-item')}`,
        2,
      );
      await page
        .locator(`${byTestId(`field-${fieldSlug('gallery')}-list`)} ${byTestId('file-caption')}`)
        .first()
        .fill('Fachada');
      await page.locator(byTestId(`field-${fieldSlug('file')}-upload`)).setInputFiles(txt('ficha.txt'));
      await page.waitForSelector(byTestId(`field-${fieldSlug('file')}-preview`));
      await page
        .locator(byTestId(`field-${fieldSlug('multiple-file')}-upload`))
        .setInputFiles([txt('a.txt'), txt('b.txt')]);
      await waitForCount(
        page,
        `${byTestId(`field-${fieldSlug('multiple-file')}-list`)} ${byTestId('file-item')}`,
        2,
      );
      await page.selectOption(editor('select'), 'B');
      await page.check(`${editor('multiselect')} label:has-text("A") input`);
      await page.check(`${editor('multiselect')} label:has-text("C") input`);
      await page.check(editor('checkbox'));
      await page.fill(editor('currency'), '12345');
      expect(await page.inputValue(editor('currency'))).toBe('R$ 123,45');
      await page.fill(editor('whatsapp_link'), '(11) 98888-7777');
      await page.fill(editor('telephone_link'), '(11) 3333-4444');
      await page.fill(editor('email_link'), 'ana@example.com');
      await page.click(`${editor('image-select')} label:has-text("Verde")`);
      await page.waitForSelector(`${editor('relation')} option:text-is("Machado")`, { state: 'attached' });
      await page.selectOption(editor('relation'), { label: 'Machado' });
      await page.fill(byTestId(`field-${fieldSlug('csvtable')}-cell-0-0`), 'Quarto');
      await page.click(byTestId(`field-${fieldSlug('csvtable')}-add-column`));
      await page.fill(byTestId(`field-${fieldSlug('csvtable')}-cell-0-1`), '3, suítes');

      await page.click(byTestId('record-save'));
      await page.waitForURL(pathIs(`/project/${projectId}/table/${tableId}/browse`));
      await waitForCount(page, byTestId('record-row'), 1);
      const postId = Number(await page.getAttribute(byTestId('record-row'), 'data-post-id'));
      expect(await page.textContent(byTestId('record-title'))).toBe('Casa Azul à Venda');

      const table = await apiGet<ApiTable>(owner, `/api/tables/${tableId}`);
      const post = await apiGet<ApiPost>(owner, `/api/posts/${postId}`);
      const value = (type: FieldType) => {
        const field = table.fields.find((candidate) => candidate.type === type);
        return post.fields.find((entry) => entry.field_id === field?.id)?.value;
      };
      expect(post.slug).toBe('casa-azul-a-venda');
      expect(value('text')).toBe('Texto obrigatório');
      expect(String(value('wysiwyg'))).toContain('Olá rico');
      expect(String(value('image'))).toMatch(/\.png$/);
      expect(value('gallery')).toMatchObject([{ caption: 'Fachada' }, { caption: '' }]);
      expect(value('multiple-file')).toHaveLength(2);
      expect(value('select')).toBe('B');
      expect(value('multiselect')).toEqual(['A', 'C']);
      expect(value('checkbox')).toBe(1);
      expect(value('currency')).toBe(12345);
      expect(value('whatsapp_link')).toBe('https://wa.me/5511988887777');
      expect(value('telephone_link')).toBe('tel:1133334444');
      expect(value('email_link')).toBe('mailto:ana@example.com');
      expect(value('image-select')).toBe('Verde');
      expect(typeof value('relation')).toBe('number');
      expect(value('csvtable')).toBe('Quarto,"3, suítes"');

      // The list shows formatted values.
      const row = page.locator(byTestId('record-row')).first();
      expect(await row.textContent()).toContain('R$ 123,45');

      // Edit.
      await page.click(byTestId('record-edit'));
      await page.waitForURL(pathIs(`/project/${projectId}/table/${tableId}/browse/edit/${postId}`));
      await page.waitForSelector(`input${byTestId('record-title')}`);
      expect(await page.inputValue(byTestId('record-title'))).toBe('Casa Azul à Venda');
      await page.fill(byTestId('record-title'), 'Casa Azul Vendida');
      await page.click(byTestId('record-save'));
      await page.waitForURL(pathIs(`/project/${projectId}/table/${tableId}/browse`));
      await page.waitForSelector(`${byTestId('record-title')}:text-is("Casa Azul Vendida")`);

      // Back returns to the list without saving; Delete asks "Are you sure?" (accepted).
      await page.click(byTestId('record-edit'));
      await page.waitForSelector(byTestId('record-delete'));
      await page.click(byTestId('record-back'));
      await page.waitForURL(pathIs(`/project/${projectId}/table/${tableId}/browse`));
      await page.click(byTestId('record-edit'));
      await page.click(byTestId('record-delete'));
      expect(await acceptConfirmation(page)).toBe('Excluir 1 registro? Esta ação não pode ser desfeita.');
      await page.waitForURL(pathIs(`/project/${projectId}/table/${tableId}/browse`));
      await page.waitForSelector(byTestId('records-empty'));
    },
    LONG,
  );

  it(
    'imports 1,000 rows from CSV, exports CSV and JSON, and bulk-deletes a page',
    async () => {
      const slugs = FIELD_TYPES.map(fieldSlug);
      const lines = [['name', 'slug', ...slugs].join(',')];
      for (let i = 1; i <= 1000; i += 1) {
        const values = FIELD_TYPES.map((type) => {
          if (type === 'text') return `Texto ${i}`;
          if (type === 'string') return `Linha ${i}`;
          if (type === 'checkbox') return i % 2 === 0 ? '1' : '0';
          if (type === 'currency') return String(i);
          return '';
        });
        lines.push([`Item ${i}`, `item-${i}`, ...values].join(','));
      }
      await page.goto(`/project/${projectId}/table/${tableId}/browse`);
      await page.waitForSelector(byTestId('records-table'));
      await page
        .locator(byTestId('import-input'))
        .setInputFiles({ name: 'imoveis.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });
      await page.click(byTestId('import-confirm'));
      await page.waitForSelector(
        `${byTestId('toast-success')}:has-text("1000 cadastros inseridos com sucesso")`,
      );
      await waitForTotal(page, 1000);
      expect(await rowCount(page, byTestId('record-row'))).toBe(100);
      expect(await page.textContent(byTestId('page-indicator'))).toBe('Página 1 de 10');
      await page.click(byTestId('page-next'));
      await page.waitForSelector(`${byTestId('page-indicator')}:text-is("Página 2 de 10")`);

      // Exports: plain links with the download attribute.
      const csvHref = await page.getAttribute(byTestId('export-csv'), 'href');
      const jsonHref = await page.getAttribute(byTestId('export-json'), 'href');
      expect(csvHref).toBe(`/api/tables/${tableId}/export/csv`);
      expect(jsonHref).toBe(`/api/tables/${tableId}/export/json`);
      const [csvDownload] = await Promise.all([
        page.waitForEvent('download'),
        page.click(byTestId('export-csv')),
      ]);
      const csv = await readFile(await csvDownload.path(), 'utf8');
      const csvLines = csv.trim().split(/\r?\n/);
      expect(csvLines[0]?.startsWith('name,slug')).toBe(true);
      expect(csvLines).toHaveLength(1001);
      const [jsonDownload] = await Promise.all([
        page.waitForEvent('download'),
        page.click(byTestId('export-json')),
      ]);
      const exported: unknown = JSON.parse(await readFile(await jsonDownload.path(), 'utf8'));
      const exportedRows = Array.isArray(exported) ? exported : (exported as { posts?: unknown[] }).posts;
      expect(exportedRows).toHaveLength(1000);
      const csvResponse = await owner.request.get(`${baseURL}${csvHref}`);
      expect(csvResponse.status()).toBe(200);
      expect(csvResponse.headers()['content-type']).toContain('csv');
      const jsonResponse = await owner.request.get(`${baseURL}${jsonHref}`);
      expect(jsonResponse.status()).toBe(200);
      expect(jsonResponse.headers()['content-type']).toContain('json');

      // The export, edited in a spreadsheet (one name changed, Excel's BOM), goes back in: its
      // records are updated by slug, nothing is duplicated.
      const excel = await owner.request.get(
        `${baseURL}${await page.getAttribute(byTestId('export-csv-excel'), 'href')}`,
      );
      const excelBytes = await excel.body();
      expect([...excelBytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const edited = excelBytes.toString('utf8').replace('Item 1,item-1,', 'Item Um,item-1,');
      expect(edited).toContain('Item Um,item-1,');
      await page
        .locator(byTestId('import-input'))
        .setInputFiles({ name: 'imoveis.csv', mimeType: 'text/csv', buffer: Buffer.from(edited) });
      // The first import's toast may still show: wait for the import's own answer.
      // The preview (a dry run) answers first; the import is the call without `dryRun`.
      const reimport = page.waitForResponse(
        (response) =>
          response.url().endsWith(`/api/tables/${tableId}/import`) &&
          response.request().method() === 'POST' &&
          !(response.request().postData() ?? '').includes('"dryRun":true'),
      );
      await page.waitForSelector(byTestId('import-preview-table'));
      await page.click(byTestId('import-confirm'));
      const answer = await reimport;
      expect(answer.status(), await answer.text()).toBe(200);
      const counts = (await answer.json()) as {
        inserted: number;
        updated: number;
        unchanged: number;
        refused: number;
      };
      expect(counts.inserted).toBe(0);
      expect(counts.refused).toBe(0);
      expect(counts.updated).toBeGreaterThanOrEqual(1);
      expect(counts.updated + counts.unchanged).toBe(1000);
      await waitForTotal(page, 1000);
      const renamed = await owner.request.get(`${baseURL}${csvHref}`);
      expect(await renamed.text()).toContain('Item Um,item-1,');

      // Bulk delete: more than 10 rows, so the bar is repeated at the top.
      await page.click(byTestId('page-previous'));
      await page.waitForSelector(`${byTestId('page-indicator')}:text-is("Página 1 de 10")`);
      await page.waitForSelector(byTestId('bulk-bar-top'));
      await page.check(byTestId('select-all'));
      expect(await page.locator(`${byTestId('record-select')}:checked`).count()).toBe(100);
      await page.click(byTestId('bulk-delete-top'));
      expect(await acceptConfirmation(page)).toBe('Excluir 100 registros? Esta ação não pode ser desfeita.');
      await page.waitForSelector(
        `${byTestId('toast-success')}:has-text("Cadastros selecionados excluídos com sucesso.")`,
      );
      await waitForTotal(page, 900);
      expect(await page.textContent(byTestId('page-indicator'))).toBe('Página 1 de 9');
    },
    LONG,
  );

  it(
    "opens the client admin panel with the project's token, and only that project's records",
    async () => {
      const project = await apiGet<{ token: string }>(owner, `/api/projects/${projectId}`);
      const client = await session.context({ acceptDownloads: true });
      try {
        const panel = await client.newPage();
        await panel.goto(`/admin?token=${encodeURIComponent(project.token)}`);
        await panel.waitForSelector(byTestId('client-home'));
        expect(await panel.textContent(byTestId('client-project-name'))).toBe('E2E Collections');
        expect(await panel.$(byTestId('logout-link'))).toBeNull();
        expect(await panel.$(byTestId('header-email'))).toBeNull();
        const listed = await panel.$$eval(byTestId('client-table-link'), (links) =>
          links.map((link) => Number(link.getAttribute('data-table-id'))),
        );
        expect(listed.sort()).toEqual([authorsTableId, tableId].sort());

        // Another project's collection is out of reach.
        await panel.goto(`/admin/table/${otherProjectTableId}`);
        await panel.waitForURL(pathIs('/admin'));
        const forbidden = await client.request.get(
          `${baseURL}/api/data/${otherProjectTableId}?page=1&limit=100`,
          {
            headers: { 'X-Client-Token': project.token },
          },
        );
        expect(forbidden.ok()).toBe(false);

        await panel.click(`${byTestId('client-table-link')}[data-table-id="${tableId}"]`);
        await panel.waitForURL(pathIs(`/admin/table/${tableId}`));
        await waitForTotal(panel, 900);
        // The token never goes in the address: the panel fetches the export with its header.
        expect(await panel.getAttribute(byTestId('export-csv'), 'href')).toBe(
          `/api/tables/${tableId}/export/csv`,
        );
        const [download] = await Promise.all([
          panel.waitForEvent('download'),
          panel.click(byTestId('export-json')),
        ]);
        expect(download.suggestedFilename()).toMatch(/\.json$/);

        // The client edits a record through the same form.
        await panel.locator(byTestId('record-edit')).first().click();
        await panel.waitForURL((url) => url.pathname.startsWith(`/admin/table/${tableId}/edit/`));
        // The form's screen loads on demand; the list (whose titles share the test id) stays
        // until it has.
        await panel.waitForSelector(`input${byTestId('record-title')}`);
        await panel.fill(byTestId('record-title'), 'Editado pelo cliente');
        await panel.click(byTestId('record-save'));
        await panel.waitForURL(pathIs(`/admin/table/${tableId}`));
        await panel.waitForSelector(`${byTestId('record-title')}:text-is("Editado pelo cliente")`);
      } finally {
        await client.close();
      }
    },
    LONG,
  );

  it('shows the invalid-link screen for a wrong token and after the link is regenerated', async () => {
    const before = await apiGet<{ token: string }>(owner, `/api/projects/${projectId}`);
    const client = await session.context();
    try {
      const panel = await client.newPage();
      await panel.goto('/admin?token=not-a-real-token');
      await panel.waitForSelector(byTestId('client-invalid-link'));
      expect(await panel.$(byTestId('client-home'))).toBeNull();

      await page.goto(`/project/${projectId}/edit`);
      await page.click(byTestId('regenerate-client-link'));
      await acceptConfirmation(page);
      await page.waitForSelector(byTestId('toast-success'));
      const after = await apiGet<{ token: string }>(owner, `/api/projects/${projectId}`);
      expect(after.token).not.toBe(before.token);

      await panel.goto(`/admin?token=${encodeURIComponent(before.token)}`);
      await panel.waitForSelector(byTestId('client-invalid-link'));
      await panel.goto(`/admin?token=${encodeURIComponent(after.token)}`);
      await panel.waitForSelector(byTestId('client-home'));
    } finally {
      await client.close();
    }
  });
});
