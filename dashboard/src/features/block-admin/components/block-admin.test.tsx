// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { paths } from '@/app/paths';
import { RequireAdmin } from '@/app/RequireAdmin';
import { getToasts } from '@/testing/toasts';
import type { User } from '@/lib/types';
import { acceptConfirm, cancelConfirm, confirmText } from '@/testing/dialogs';
import { expectFieldError, expectFocused } from '@/testing/forms';
import { mockApi, renderRoutes, type Handler } from '@/testing/render-route';
import { scrollsInsideItsCard, tableHeaders } from '@/testing/tables';
import { BlockAdminRoute } from '@/features/block-admin/routes/BlockAdminRoute';
import type { LibraryBlock } from '@/lib/types';
import type { Library } from '@/features/block-admin/types';

const routes = [
  { element: <RequireAdmin />, children: [{ path: paths.erpBlocks.pattern, element: <BlockAdminRoute /> }] },
];

const user = (isAdmin: boolean): User => ({
  id: 1,
  name: 'Ana',
  email: 'ana@example.com',
  language: 'pt-BR',
  currency: 'BRL',
  business_id: null,
  is_admin: isAdmin,
  is_business_admin: false,
  permissions: {},
  created_at: '2025-01-01T00:00:00Z',
});

const block = (id: number, name: string, categoryId: number, order = 1): LibraryBlock => ({
  id,
  uid: `b${id}`,
  name,
  category_id: categoryId,
  image: null,
  keywords: 'topo',
  template: `<section>${name}</section>`,
  css: '',
  js: '',
  order,
});

const library = (): Library => ({
  categories: [
    {
      id: 1,
      key: 'hero',
      name: 'Heros',
      icon: '<svg></svg>',
      order: 1,
      blocks: [block(10, 'Hero A', 1), block(11, 'Hero B', 1, 2)],
    },
    { id: 2, key: null, name: 'Vazia', icon: '', order: 2, blocks: [] },
  ],
});

function api(handlers: Record<string, Handler> = {}, isAdmin = true) {
  return mockApi({
    'GET /api/user': () => ({ json: user(isAdmin) }),
    'GET /api/blocks': () => ({ json: { ...library(), my_blocks: [] } }),
    'GET /erp/thumbnails': () => ({ json: { running: false, done: 0, total: 0, failed: 0 } }),
    ...handlers,
  });
}

const toasts = () => getToasts().map((toast) => `${toast.kind}:${toast.message}`);
const posts = (calls: { method: string; url: string; body: unknown }[], url: string) =>
  calls.filter((c) => c.method === 'POST' && c.url === url);

async function open() {
  renderRoutes(routes, '/erp/blocks');
  await screen.findByTestId('block-admin');
}

describe('admin guard', () => {
  it('shows a forbidden notice to a signed-in user who is not an admin, without loading the library', async () => {
    const calls = api({}, false);
    renderRoutes(routes, '/erp/blocks');
    await screen.findByTestId('forbidden');
    expect(screen.queryByTestId('block-admin')).toBeNull();
    expect(calls.some((c) => c.url === '/api/blocks')).toBe(false);
  });
});

describe('admin blocks screen', () => {
  beforeEach(() => {
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:shot'), revokeObjectURL: vi.fn() }),
    );
  });

  it('lists categories in order with their blocks; delete is only enabled on an empty category', async () => {
    api();
    await open();
    const heros = screen.getByTestId('category-1');
    expect(within(heros).getByText('Hero A')).toBeTruthy();
    expect(within(heros).getByText('Hero B')).toBeTruthy();
    expect(within(heros).getByTestId<HTMLButtonElement>('category-delete').disabled).toBe(true);
    expect(
      within(screen.getByTestId('category-2')).getByTestId<HTMLButtonElement>('category-delete').disabled,
    ).toBe(false);
    expect(within(heros).getByTestId('category-icon-image').getAttribute('src')).toContain(
      'data:image/svg+xml',
    );
  });

  it("shows each category's blocks in a table that scrolls in its card, with headers that do not sort", async () => {
    api();
    await open();
    const table = within(screen.getByTestId('category-1')).getByTestId('blocks-table');
    expect(scrollsInsideItsCard(table)).toBe(true);
    expect(table.getAttribute('aria-label')).toBe('Heros');
    // The library is answered whole, in its stored order: the API takes no sort parameter.
    expect(tableHeaders(table)).toEqual([
      { text: 'Miniatura', sort: null },
      { text: 'Nome', sort: null },
      { text: 'Categoria', sort: null },
      { text: 'Ordem', sort: null },
      { text: 'Ações', sort: null },
    ]);
    expect(table.querySelector('.sort-button')).toBeNull();
    expect(table.querySelector('input[type="checkbox"]')).toBeNull();
  });

  it('keeps what is being typed in a row while the table redraws around it', async () => {
    api({ 'GET /api/block-screenshot/10': () => new Response(new Blob(['png']), { status: 200 }) });
    await open();
    const row = screen.getByTestId('block-row-10');
    const order = within(row).getByTestId<HTMLInputElement>('block-reorder');
    order.focus();
    order.value = '7';
    // A new thumbnail changes the table's own state and redraws every row.
    fireEvent.click(within(row).getByTestId('block-screenshot'));
    await waitFor(() =>
      expect(within(row).getByTestId('block-thumbnail').getAttribute('src')).toBe('blob:shot'),
    );
    expect(within(row).getByTestId('block-reorder')).toBe(order);
    expect(order.value).toBe('7');
  });

  it('creates a block with order 99 by default, toasts "Feito" and reloads the library', async () => {
    const calls = api({
      'POST /erp/block': ({ body }) => ({
        status: 201,
        json: { ...block(12, 'Novo', 2), ...(body as object) },
      }),
    });
    await open();
    fireEvent.click(screen.getByTestId('block-new'));
    const form = await screen.findByTestId('block-form');
    fireEvent.change(within(form).getByTestId('block-name'), { target: { value: ' Novo ' } });
    fireEvent.change(within(form).getByTestId('block-category'), { target: { value: '2' } });
    fireEvent.change(within(form).getByTestId('block-keywords'), { target: { value: 'novo' } });
    fireEvent.change(within(form).getByTestId('block-template'), { target: { value: '<div>x</div>' } });
    fireEvent.change(within(form).getByTestId('block-css'), { target: { value: 'div{}' } });
    expect(within(form).getByTestId<HTMLInputElement>('block-order').value).toBe('99');
    fireEvent.click(within(form).getByTestId('block-form-save'));
    await waitFor(() => expect(screen.queryByTestId('block-form')).toBeNull());
    expect(posts(calls, '/erp/block')[0]?.body).toEqual({
      name: 'Novo',
      category_id: 2,
      image: '',
      keywords: 'novo',
      template: '<div>x</div>',
      css: 'div{}',
      js: '',
      order: 99,
    });
    expect(toasts()).toContain('success:Feito');
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/blocks')).toHaveLength(2));
  });

  it("keeps the form open with the server's message and a failure toast on 409", async () => {
    // The server's English message; the dashboard says its code's text.
    const message = 'Já existe um bloco com esse nome';
    api({
      'POST /erp/block/10': () => ({
        status: 409,
        json: { error: 'block_name_taken', message: 'Block Name already exists' },
      }),
    });
    await open();
    fireEvent.click(within(screen.getByTestId('block-row-10')).getByTestId('block-edit'));
    const form = await screen.findByTestId('block-form');
    expect(within(form).getByTestId<HTMLInputElement>('block-name').value).toBe('Hero A');
    fireEvent.change(within(form).getByTestId('block-name'), { target: { value: 'Hero B' } });
    fireEvent.click(within(form).getByTestId('block-form-save'));
    expect((await screen.findByTestId('block-form-error')).textContent).toBe(message);
    expect(toasts()).toContain(`error:Falhou: ${message}`);
    expect(screen.getByTestId('block-form')).toBeTruthy();
  });

  it('refuses an empty name and HTML at their fields before calling the server', async () => {
    const calls = api();
    await open();
    fireEvent.click(screen.getByTestId('block-new'));
    fireEvent.click(await screen.findByTestId('block-form-save'));
    await expectFieldError('block-name', 'O nome do bloco é obrigatório');
    await expectFieldError('block-template', 'O HTML do bloco é obrigatório');
    await expectFocused('block-name');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('shows a server error that names the name at the name field', async () => {
    api({
      'POST /erp/block': () => ({
        status: 409,
        json: { error: 'block_name_taken', message: 'Block Name already exists', field: 'name' },
      }),
    });
    await open();
    fireEvent.click(screen.getByTestId('block-new'));
    const form = await screen.findByTestId('block-form');
    fireEvent.change(within(form).getByTestId('block-name'), { target: { value: 'Hero A' } });
    fireEvent.change(within(form).getByTestId('block-template'), { target: { value: '<div></div>' } });
    fireEvent.click(within(form).getByTestId('block-form-save'));
    await expectFieldError('block-name', 'Já existe um bloco com esse nome');
    await expectFocused('block-name');
    expect(screen.queryByTestId('block-form-error')).toBeNull();
  });

  it('refuses a category with an empty name at its field', async () => {
    const calls = api();
    await open();
    fireEvent.click(screen.getByTestId('category-new'));
    const form = await screen.findByTestId('category-form');
    fireEvent.change(within(form).getByTestId('category-order'), { target: { value: '1.5' } });
    fireEvent.click(within(form).getByTestId('category-form-save'));
    await expectFieldError('category-name', 'O nome da categoria é obrigatório');
    await expectFieldError('category-order', 'A ordem deve ser um número inteiro de 0 a 1000000');
    await expectFocused('category-name');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('moves a block, changes its order and deletes it after a confirmation in Portuguese', async () => {
    const calls = api({
      'POST /erp/block/10': () => ({ json: block(10, 'Hero A', 2) }),
      'POST /erp/reorder-block/10': () => ({ status: 204 }),
      'POST /erp/delete-block/10': () => ({ status: 204 }),
    });
    await open();
    const row = screen.getByTestId('block-row-10');
    fireEvent.change(within(row).getByTestId('block-move'), { target: { value: '2' } });
    await waitFor(() => expect(posts(calls, '/erp/block/10')[0]?.body).toEqual({ category_id: 2 }));

    const order = within(row).getByTestId('block-reorder');
    fireEvent.change(order, { target: { value: '5' } });
    fireEvent.blur(order);
    await waitFor(() => expect(posts(calls, '/erp/reorder-block/10')[0]?.body).toEqual({ order: 5 }));

    fireEvent.click(within(row).getByTestId('block-delete'));
    expect(await confirmText()).toBe(
      'Excluir o bloco "Hero A"? O bloco sai da biblioteca; as páginas que já o usam não mudam.',
    );
    expect(posts(calls, '/erp/delete-block/10')).toHaveLength(0);
    await acceptConfirm();
    await waitFor(() => expect(posts(calls, '/erp/delete-block/10')).toHaveLength(1));
    await waitFor(() =>
      expect(toasts().filter((t) => t === 'success:Feito').length).toBeGreaterThanOrEqual(3),
    );
  });

  it('does not delete a block when the confirmation is refused', async () => {
    const calls = api();
    await open();
    fireEvent.click(within(screen.getByTestId('block-row-10')).getByTestId('block-delete'));
    await cancelConfirm();
    expect(calls.some((c) => c.url === '/erp/delete-block/10')).toBe(false);
  });

  it('edits, reorders and deletes a category after a confirmation, and shows the failure when the server refuses', async () => {
    const calls = api({
      'POST /erp/category/2': () => ({
        json: { id: 2, key: null, name: 'Vazia 2', icon: '', order: 4, blocks: [] },
      }),
      'POST /erp/reorder-category/1': () => ({ status: 204 }),
      'POST /erp/delete-category/2': () => ({
        status: 409,
        json: {
          error: 'category_not_empty',
          message: 'The category still has blocks; move or delete them first',
        },
      }),
    });
    await open();
    const empty = screen.getByTestId('category-2');
    fireEvent.click(within(empty).getByTestId('category-edit'));
    const form = await screen.findByTestId('category-form');
    fireEvent.change(within(form).getByTestId('category-name'), { target: { value: 'Vazia 2' } });
    fireEvent.change(within(form).getByTestId('category-order'), { target: { value: '4' } });
    fireEvent.click(within(form).getByTestId('category-form-save'));
    await waitFor(() =>
      expect(posts(calls, '/erp/category/2')[0]?.body).toEqual({ name: 'Vazia 2', icon: '', order: 4 }),
    );
    await waitFor(() => expect(screen.queryByTestId('category-form')).toBeNull());

    const order = within(screen.getByTestId('category-1')).getByTestId('category-reorder');
    fireEvent.change(order, { target: { value: '3' } });
    fireEvent.keyDown(order, { key: 'Enter' });
    await waitFor(() => expect(posts(calls, '/erp/reorder-category/1')[0]?.body).toEqual({ order: 3 }));

    fireEvent.click(within(screen.getByTestId('category-2')).getByTestId('category-delete'));
    expect(await confirmText()).toBe(
      'Excluir a categoria "Vazia"? Só uma categoria sem blocos pode ser excluída.',
    );
    await acceptConfirm();
    await waitFor(() =>
      expect(toasts()).toContain('error:Falhou: A categoria ainda tem blocos; mova ou exclua-os antes.'),
    );
  });

  it('creates a category', async () => {
    const calls = api({
      'POST /erp/category': () => ({
        status: 201,
        json: { id: 3, key: null, name: 'Rodapés', icon: '', order: 99, blocks: [] },
      }),
    });
    await open();
    fireEvent.click(screen.getByTestId('category-new'));
    const form = await screen.findByTestId('category-form');
    fireEvent.change(within(form).getByTestId('category-name'), { target: { value: 'Rodapés' } });
    fireEvent.change(within(form).getByTestId('category-icon'), { target: { value: '<svg/>' } });
    fireEvent.click(within(form).getByTestId('category-form-save'));
    await waitFor(() =>
      expect(posts(calls, '/erp/category')[0]?.body).toEqual({ name: 'Rodapés', icon: '<svg/>', order: 99 }),
    );
  });

  it('searches and shows the results instead of the categories until cleared', async () => {
    const calls = api({
      'POST /erp/searchBlocks': () => ({ json: [block(11, 'Hero B', 1)] }),
      'POST /erp/delete-block/11': () => ({ status: 204 }),
    });
    await open();
    fireEvent.change(screen.getByTestId('block-search'), { target: { value: ' hero ' } });
    fireEvent.click(screen.getByTestId('block-search-submit'));
    const results = await screen.findByTestId('block-search-results');
    expect(await within(results).findByText('Hero B')).toBeTruthy();
    expect(posts(calls, '/erp/searchBlocks')[0]?.body).toEqual({ term: 'hero' });
    expect(within(results).queryByText('Hero A')).toBeNull();
    // An action on a result refreshes the results.
    fireEvent.click(within(results).getByTestId('block-delete'));
    await acceptConfirm();
    await waitFor(() => expect(posts(calls, '/erp/searchBlocks')).toHaveLength(2));
    fireEvent.click(screen.getByTestId('block-search-clear'));
    await screen.findByTestId('category-1');
  });

  it('generates a thumbnail with the chosen size and trim, and shows the server response when it fails', async () => {
    let fail = false;
    const calls = api({
      'GET /api/block-screenshot/10': () =>
        fail
          ? new Response('screenshot renderer not configured', { status: 503 })
          : new Response(new Blob(['png']), { status: 200 }),
    });
    await open();
    const row = screen.getByTestId('block-row-10');
    fireEvent.click(within(row).getByTestId('block-screenshot'));
    await waitFor(() =>
      expect(within(row).getByTestId('block-thumbnail').getAttribute('src')).toBe('blob:shot'),
    );
    expect(calls.find((c) => c.url.startsWith('/api/block-screenshot/10'))?.url).toBe(
      '/api/block-screenshot/10?size=1280,600&trim=1',
    );

    fail = true;
    fireEvent.change(screen.getByTestId('screenshot-size'), { target: { value: '800,400' } });
    fireEvent.click(screen.getByTestId('screenshot-trim'));
    fireEvent.click(within(row).getByTestId('block-screenshot'));
    expect((await within(row).findByTestId('block-screenshot-error')).textContent).toContain(
      'screenshot renderer not configured',
    );
    expect(calls.filter((c) => c.url.startsWith('/api/block-screenshot/10')).at(-1)?.url).toBe(
      '/api/block-screenshot/10?size=800,400',
    );
    expect(toasts()).toContain('error:Falhou: screenshot renderer not configured');
  });

  it('imports blocks from pasted text and shows the 422 message at the text when the server refuses', async () => {
    let status = 422;
    const refusal = {
      error: 'block_html_empty',
      message: "Block 1: The block's HTML is empty",
      field: 'blocks',
      params: { index: 1 },
    };
    const calls = api({
      'POST /erp/import-blocks': () =>
        status === 422 ? { status, json: refusal } : { json: { imported: 2 } },
    });
    await open();
    fireEvent.click(screen.getByTestId('import-blocks-open'));
    await screen.findByTestId('import-blocks');
    fireEvent.change(screen.getByTestId('import-text'), { target: { value: '[{"name":"x"}]' } });
    fireEvent.click(screen.getByTestId('import-submit'));
    await expectFieldError('import-text', 'Item 1: O HTML do bloco é obrigatório');
    expect(screen.queryByTestId('import-error')).toBeNull();
    expect(posts(calls, '/erp/import-blocks')[0]?.body).toEqual({ blocks: '[{"name":"x"}]' });
    status = 200;
    fireEvent.click(screen.getByTestId('import-submit'));
    await waitFor(() => expect(screen.queryByTestId('import-blocks')).toBeNull());
    expect(toasts()).toContain('success:2 importados');
  });

  it('refuses an empty or non-JSON import at its field, and shows a refused entry there', async () => {
    const calls = api({
      'POST /erp/import-categories': () => ({
        status: 422,
        json: {
          error: 'category_name_required',
          message: 'Category 2: the name is required',
          field: 'categories',
          params: { index: 2 },
        },
      }),
    });
    await open();
    fireEvent.click(screen.getByTestId('import-categories-open'));
    await screen.findByTestId('import-categories');
    fireEvent.click(screen.getByTestId('import-submit'));
    await expectFieldError('import-text', 'Este campo é obrigatório');
    await expectFocused('import-text');
    fireEvent.change(screen.getByTestId('import-text'), { target: { value: '[{"name":' } });
    fireEvent.click(screen.getByTestId('import-submit'));
    await expectFieldError('import-text', 'O texto não é um JSON válido');
    expect(posts(calls, '/erp/import-categories')).toEqual([]);
    fireEvent.change(screen.getByTestId('import-text'), { target: { value: '[{"name":"C"},{"name":""}]' } });
    fireEvent.click(screen.getByTestId('import-submit'));
    await expectFieldError('import-text', 'Item 2: O nome da categoria é obrigatório.');
    await expectFocused('import-text');
    expect(screen.queryByTestId('import-error')).toBeNull();
  });

  it('imports categories', async () => {
    const calls = api({ 'POST /erp/import-categories': () => ({ json: { imported: 1 } }) });
    await open();
    fireEvent.click(screen.getByTestId('import-categories-open'));
    fireEvent.change(await screen.findByTestId('import-text'), { target: { value: '[{"name":"C"}]' } });
    fireEvent.click(screen.getByTestId('import-submit'));
    await waitFor(() =>
      expect(posts(calls, '/erp/import-categories')[0]?.body).toEqual({ categories: '[{"name":"C"}]' }),
    );
  });

  it('exports one block and everything as copyable, downloadable text', async () => {
    api({
      'GET /erp/export-block/10': () => ({ json: { name: 'Hero A' } }),
      'GET /erp/export-categories': () => ({ json: [{ name: 'Heros' }] }),
      'GET /erp/export-blocks': () => ({ json: [{ name: 'Hero A' }, { name: 'Hero B' }] }),
    });
    await open();
    fireEvent.click(within(screen.getByTestId('block-row-10')).getByTestId('block-export'));
    const one = await screen.findByTestId<HTMLTextAreaElement>('export-text-block-10.json');
    expect(JSON.parse(one.value)).toEqual({ name: 'Hero A' });
    fireEvent.keyDown(screen.getByTestId('export-modal'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('export-modal')).toBeNull());

    fireEvent.click(screen.getByTestId('export-all'));
    const blocks = await screen.findByTestId<HTMLTextAreaElement>('export-text-blocks.json');
    expect(JSON.parse(blocks.value)).toHaveLength(2);
    expect(JSON.parse(screen.getByTestId<HTMLTextAreaElement>('export-text-categories.json').value)).toEqual([
      { name: 'Heros' },
    ]);
    expect(screen.getByTestId('export-download-blocks.json').getAttribute('download')).toBe('blocks.json');
    expect(screen.getByTestId('export-download-blocks.json').getAttribute('href')).toMatch(
      /^data:application\/json/,
    );
  });

  it('deletes everything after a confirmation that says what is lost', async () => {
    const calls = api({ 'POST /erp/truncate': () => ({ status: 204 }) });
    await open();
    fireEvent.click(screen.getByTestId('truncate'));
    expect(await confirmText()).toBe(
      'Excluir todos os blocos e categorias da biblioteca? Os blocos e as categorias saem da biblioteca de todos; as páginas que já os usam não mudam. Esta ação não pode ser desfeita.',
    );
    await acceptConfirm();
    await waitFor(() => expect(posts(calls, '/erp/truncate')).toHaveLength(1));
    await waitFor(() => expect(toasts()).toContain('success:Feito'));
  });
});

describe('regenerate all thumbnails', () => {
  it('starts a pass, shows its progress as the server reports it, then reads the library again', async () => {
    const states = [
      { running: true, done: 0, total: 3, failed: 0 },
      { running: true, done: 2, total: 3, failed: 0 },
      { running: false, done: 3, total: 3, failed: 1, last_error: 'Chromium failed: timed out' },
    ];
    let step = -1;
    const calls = api({
      'GET /erp/thumbnails': () => ({
        json: step < 0 ? { running: false, done: 0, total: 0, failed: 0 } : states[Math.min(step++, 2)],
      }),
      'POST /erp/thumbnails': () => {
        step = 1;
        return { status: 202, json: states[0] };
      },
    });
    await open();
    expect(screen.queryByTestId('thumbnails-progress')).toBeNull();
    const libraryReads = () => calls.filter((c) => c.url === '/api/blocks').length;
    const before = libraryReads();

    fireEvent.click(screen.getByTestId('thumbnails-regenerate'));
    await waitFor(() =>
      expect(screen.getByTestId('thumbnails-progress').textContent?.trim()).toBe(
        'Gerando miniaturas: 0 de 3',
      ),
    );
    expect(posts(calls, '/erp/thumbnails')).toHaveLength(1);
    expect(screen.getByTestId<HTMLButtonElement>('thumbnails-regenerate').disabled).toBe(true);
    await waitFor(
      () =>
        expect(screen.getByTestId('thumbnails-progress').textContent?.trim()).toBe(
          'Gerando miniaturas: 2 de 3',
        ),
      { timeout: 3_000 },
    );
    await waitFor(
      () =>
        expect(screen.getByTestId('thumbnails-progress').textContent?.trim()).toBe(
          'Miniaturas prontas: 2; com erro: 1',
        ),
      { timeout: 3_000 },
    );
    expect(screen.getByTestId('thumbnails-progress').getAttribute('title')).toBe(
      'Chromium failed: timed out',
    );
    expect(screen.getByTestId<HTMLButtonElement>('thumbnails-regenerate').disabled).toBe(false);
    // The new pictures: the library is read again once the pass is over.
    await waitFor(() => expect(libraryReads()).toBeGreaterThan(before));
  });
});
