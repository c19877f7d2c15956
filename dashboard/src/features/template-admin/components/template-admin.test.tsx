// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { paths } from '@/app/paths';
import { RequireAdmin } from '@/app/RequireAdmin';
import { getToasts } from '@/testing/toasts';
import { expectFieldError, expectFocused } from '@/testing/forms';
import type { User } from '@/lib/types';
import { acceptConfirm, cancelConfirm, confirmText } from '@/testing/dialogs';
import { scrollsInsideItsCard, tableHeaders } from '@/testing/tables';
import { mockApi, renderRoutes, type ApiCall, type Handler } from '@/testing/render-route';
import { TemplateAdminRoute } from '@/features/template-admin/routes/TemplateAdminRoute';
import type { TemplateView } from '@/features/template-admin/types';

const routes = [
  {
    element: <RequireAdmin />,
    children: [
      { path: paths.erpTemplates.pattern, element: <TemplateAdminRoute /> },
      { path: paths.template.pattern, element: <p data-testid="preview-stub">preview</p> },
    ],
  },
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

const template = (
  id: number,
  name: string,
  order: number,
  overrides: Partial<TemplateView> = {},
): TemplateView => ({
  id,
  name,
  description: `Tema ${name}`,
  category: 'Loja',
  order,
  is_published: '1',
  thumbnail: null,
  ...overrides,
});

const templates = (): TemplateView[] => [
  template(1, 'Aurora', 1, { thumbnail: '/files/templates/1.png' }),
  template(2, 'Brisa', 2, { category: 'Blog', is_published: '0' }),
  template(3, 'Cais', 3),
];

function api(handlers: Record<string, Handler> = {}, isAdmin = true) {
  return mockApi({
    'GET /api/user': () => ({ json: user(isAdmin) }),
    'GET /erp/templateList': () => ({ json: templates() }),
    ...handlers,
  });
}

const toasts = () => getToasts().map((toast) => `${toast.kind}:${toast.message}`);
const posts = (calls: ApiCall[], url: string) => calls.filter((c) => c.method === 'POST' && c.url === url);

async function open() {
  const router = renderRoutes(routes, '/erp/templates');
  await screen.findByTestId('template-admin');
  return router;
}

describe('admin guard', () => {
  it('shows a forbidden notice to a user who is not an admin, without loading the list', async () => {
    const calls = api({}, false);
    renderRoutes(routes, '/erp/templates');
    await screen.findByTestId('forbidden');
    expect(screen.queryByTestId('template-admin')).toBeNull();
    expect(calls.some((c) => c.url === '/erp/templateList')).toBe(false);
  });
});

describe('admin templates screen', () => {
  beforeEach(() => {
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:shot'), revokeObjectURL: vi.fn() }),
    );
  });

  it('lists templates in order with thumbnail or placeholder, category / name and published state', async () => {
    api({ 'GET /erp/templateList': () => ({ json: [templates()[2], templates()[0], templates()[1]] }) });
    await open();
    const rows = screen.getAllByTestId(/^template-row-/);
    expect(rows.map((row) => row.dataset.testid)).toEqual([
      'template-row-1',
      'template-row-2',
      'template-row-3',
    ]);

    const aurora = screen.getByTestId('template-row-1');
    expect(within(aurora).getByTestId('template-thumbnail').getAttribute('src')).toBe(
      '/files/templates/1.png',
    );
    expect(within(aurora).getByTestId('template-category-label').textContent).toBe('Loja');
    expect(within(aurora).getByTestId('template-name-label').textContent).toBe('Aurora');
    expect(within(aurora).getByTestId('template-published-state').textContent).toBe('Publicado');

    const brisa = screen.getByTestId('template-row-2');
    expect(within(brisa).queryByTestId('template-thumbnail')).toBeNull();
    expect(within(brisa).getByTestId('template-thumbnail-empty').textContent).toBe('Sem miniatura');
    expect(within(brisa).getByTestId('template-category-label').textContent).toBe('Blog');
    expect(within(brisa).getByTestId('template-published-state').textContent).toBe('Não publicado');
    expect(within(brisa).getByTestId('template-published-state').dataset.published).toBe('0');

    expect(within(aurora).getByTestId('template-view').getAttribute('href')).toBe('/template/1');
    expect(within(aurora).getByTestId<HTMLButtonElement>('template-move-up').disabled).toBe(true);
    expect(
      within(screen.getByTestId('template-row-3')).getByTestId<HTMLButtonElement>('template-move-down')
        .disabled,
    ).toBe(true);
  });

  it('shows them in a table that scrolls in its card, with headers that do not sort (the order is dragged)', async () => {
    api();
    await open();
    const table = screen.getByTestId('template-admin-table');
    expect(scrollsInsideItsCard(table)).toBe(true);
    expect(tableHeaders(table)).toEqual([
      { text: 'Ordem', sort: null },
      { text: 'Miniatura', sort: null },
      { text: 'Categoria / Nome', sort: null },
      { text: 'Publicado', sort: null },
      { text: 'Ações', sort: null },
    ]);
    expect(table.querySelector('.sort-button')).toBeNull();
    expect(within(table).getAllByTestId('template-drag')).toHaveLength(3);
  });

  it('shows an empty state when there is no template', async () => {
    api({ 'GET /erp/templateList': () => ({ json: [] }) });
    await open();
    expect(screen.getByTestId('template-admin-empty')).toBeTruthy();
  });

  it('opens the theme preview from "view"', async () => {
    api();
    const router = await open();
    fireEvent.click(within(screen.getByTestId('template-row-2')).getByTestId('template-view'));
    await screen.findByTestId('preview-stub');
    expect(router.state.location.pathname).toBe('/template/2');
  });

  it('edits name, category, description and the published flag, toasts "Feito" and reloads the list', async () => {
    const calls = api({
      'POST /erp/template/2': ({ body }) => ({ json: { ...templates()[1], ...(body as object) } }),
    });
    await open();
    fireEvent.click(within(screen.getByTestId('template-row-2')).getByTestId('template-edit'));
    const form = await screen.findByTestId('template-form');
    expect(within(form).getByTestId<HTMLInputElement>('template-name').value).toBe('Brisa');
    expect(within(form).getByTestId<HTMLInputElement>('template-published').checked).toBe(false);
    fireEvent.change(within(form).getByTestId('template-name'), { target: { value: ' Brisa 2 ' } });
    fireEvent.change(within(form).getByTestId('template-category'), { target: { value: 'Portfólio' } });
    fireEvent.change(within(form).getByTestId('template-description'), { target: { value: 'Novo texto' } });
    fireEvent.click(within(form).getByTestId('template-published'));
    fireEvent.click(within(form).getByTestId('template-form-save'));
    await waitFor(() => expect(screen.queryByTestId('template-form')).toBeNull());
    expect(posts(calls, '/erp/template/2')[0]?.body).toEqual({
      name: 'Brisa 2',
      category: 'Portfólio',
      description: 'Novo texto',
      is_published: '1',
    });
    expect(toasts()).toContain('success:Feito');
    await waitFor(() => expect(calls.filter((c) => c.url === '/erp/templateList')).toHaveLength(2));
  });

  it('unpublishes with is_published "0"', async () => {
    const calls = api({ 'POST /erp/template/1': () => ({ json: { ...templates()[0], is_published: '0' } }) });
    await open();
    fireEvent.click(within(screen.getByTestId('template-row-1')).getByTestId('template-edit'));
    const form = await screen.findByTestId('template-form');
    fireEvent.click(within(form).getByTestId('template-published'));
    fireEvent.click(within(form).getByTestId('template-form-save'));
    await waitFor(() =>
      expect(posts(calls, '/erp/template/1')[0]?.body).toMatchObject({ name: 'Aurora', is_published: '0' }),
    );
  });

  it('shows a server error that names a field at that field, with a failure toast', async () => {
    const message = 'No máximo 200 caracteres';
    api({
      'POST /erp/template/3': () => ({
        status: 422,
        json: {
          error: 'too_long',
          message: 'name must be at most 200 characters',
          field: 'name',
          params: { max: 200 },
        },
      }),
    });
    await open();
    fireEvent.click(within(screen.getByTestId('template-row-3')).getByTestId('template-edit'));
    const form = await screen.findByTestId('template-form');
    fireEvent.change(within(form).getByTestId('template-category'), { target: { value: 'Loja' } });
    fireEvent.click(within(form).getByTestId('template-form-save'));
    await expectFieldError('template-name', message);
    await expectFocused('template-name');
    expect(toasts()).toContain(`error:Falhou: ${message}`);
    expect(screen.queryByTestId('template-form-error')).toBeNull();
    expect(screen.getByTestId('template-form')).toBeTruthy();
  });

  it('shows a server error that names no field above the form', async () => {
    const message = 'Não encontrado';
    api({
      'POST /erp/template/3': () => ({ status: 404, json: { error: 'not_found', message: 'Not found' } }),
    });
    await open();
    fireEvent.click(within(screen.getByTestId('template-row-3')).getByTestId('template-edit'));
    const form = await screen.findByTestId('template-form');
    fireEvent.click(within(form).getByTestId('template-form-save'));
    expect((await screen.findByTestId('template-form-error')).textContent).toBe(message);
  });

  it('refuses an empty name and a long description at their fields before calling the server', async () => {
    const calls = api();
    await open();
    fireEvent.click(within(screen.getByTestId('template-row-1')).getByTestId('template-edit'));
    const form = await screen.findByTestId('template-form');
    fireEvent.change(within(form).getByTestId('template-name'), { target: { value: '  ' } });
    fireEvent.change(within(form).getByTestId('template-description'), {
      target: { value: 'x'.repeat(1001) },
    });
    fireEvent.click(within(form).getByTestId('template-form-save'));
    await expectFieldError('template-name', 'O nome do template é obrigatório');
    await expectFieldError('template-description', 'No máximo 1000 caracteres');
    await expectFocused('template-name');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('deletes a template after confirmation and reloads the list', async () => {
    const calls = api({ 'POST /erp/delete-template/2': () => ({ status: 204 }) });
    await open();
    fireEvent.click(within(screen.getByTestId('template-row-2')).getByTestId('template-delete'));
    expect(await confirmText()).toBe('Excluir o tema "Brisa"? Esta ação não pode ser desfeita.');
    expect(posts(calls, '/erp/delete-template/2')).toHaveLength(0);
    await acceptConfirm();
    await waitFor(() => expect(posts(calls, '/erp/delete-template/2')).toHaveLength(1));
    await waitFor(() => expect(toasts()).toContain('success:Feito'));
    await waitFor(() => expect(calls.filter((c) => c.url === '/erp/templateList')).toHaveLength(2));
  });

  it('does not delete when the confirmation is refused', async () => {
    const calls = api();
    await open();
    fireEvent.click(within(screen.getByTestId('template-row-2')).getByTestId('template-delete'));
    await cancelConfirm();
    expect(calls.some((c) => c.url.startsWith('/erp/delete-template'))).toBe(false);
  });

  it('shows the failure with the server message when the delete fails', async () => {
    api({
      'POST /erp/delete-template/2': () => ({
        status: 404,
        json: { error: 'not_found', message: 'Not found' },
      }),
    });
    await open();
    fireEvent.click(within(screen.getByTestId('template-row-2')).getByTestId('template-delete'));
    await acceptConfirm();
    await waitFor(() => expect(toasts()).toContain('error:Falhou: Não encontrado'));
  });

  it('moves a row down with reorder-template calls for the rows whose order changed', async () => {
    const calls = api({
      'POST /erp/reorder-template/1': () => ({ status: 204 }),
      'POST /erp/reorder-template/2': () => ({ status: 204 }),
    });
    await open();
    fireEvent.click(within(screen.getByTestId('template-row-1')).getByTestId('template-move-down'));
    await waitFor(() => expect(toasts()).toContain('success:Feito'));
    expect(
      calls.filter((c) => c.url.startsWith('/erp/reorder-template/')).map((c) => [c.url, c.body]),
    ).toEqual([
      ['/erp/reorder-template/2', { order: 1 }],
      ['/erp/reorder-template/1', { order: 2 }],
    ]);
    await waitFor(() => expect(calls.filter((c) => c.url === '/erp/templateList')).toHaveLength(2));
  });

  it('shows the moved order while it is stored', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<{ status: number }>((resolve) => {
      release = () => resolve({ status: 204 });
    });
    api({
      'POST /erp/reorder-template/3': () => held,
      'POST /erp/reorder-template/2': () => ({ status: 204 }),
    });
    await open();
    fireEvent.click(within(screen.getByTestId('template-row-3')).getByTestId('template-move-up'));
    const order = () => screen.getAllByTestId(/^template-row-/).map((row) => row.dataset.testid);
    await waitFor(() => expect(order()).toEqual(['template-row-1', 'template-row-3', 'template-row-2']));
    expect(
      within(screen.getByTestId('template-row-1')).getByTestId<HTMLButtonElement>('template-move-down')
        .disabled,
    ).toBe(true);
    release();
    await waitFor(() => expect(toasts()).toContain('success:Feito'));
  });

  it('shows the failure when a reorder fails', async () => {
    api({
      'POST /erp/reorder-template/2': () => ({
        status: 422,
        json: {
          error: 'order_out_of_range',
          message: 'order must be a number from 0 to 1000000',
          field: 'order',
        },
      }),
      'POST /erp/reorder-template/3': () => ({ status: 204 }),
    });
    await open();
    fireEvent.click(within(screen.getByTestId('template-row-3')).getByTestId('template-move-up'));
    await waitFor(() =>
      expect(toasts()).toContain('error:Falhou: A ordem deve ser um número inteiro de 0 a 1000000'),
    );
  });

  it('generates a thumbnail with a busy state, shows it, and reloads the list', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<Response>((resolve) => {
      release = () => resolve(new Response(new Blob(['png']), { status: 200 }));
    });
    const calls = api({ 'GET /api/template-screenshot/2': () => held });
    await open();
    const row = screen.getByTestId('template-row-2');
    const button = within(row).getByTestId<HTMLButtonElement>('template-screenshot');
    fireEvent.click(button);
    await waitFor(() => expect(button.disabled).toBe(true));
    expect(button.textContent).toBe('Gerando…');
    expect(calls.find((c) => c.url.startsWith('/api/template-screenshot/'))?.url).toBe(
      '/api/template-screenshot/2?size=1280,1280&trim=0',
    );
    release();
    await waitFor(() =>
      expect(within(row).getByTestId('template-thumbnail').getAttribute('src')).toBe('blob:shot'),
    );
    expect(button.disabled).toBe(false);
    expect(toasts()).toContain('success:Feito');
    await waitFor(() => expect(calls.filter((c) => c.url === '/erp/templateList')).toHaveLength(2));
  });

  it("shows the server's 503 text in a failure toast when Chromium is missing", async () => {
    const message = 'Chromium is not installed on this server';
    api({
      'GET /api/template-screenshot/1': () => ({ status: 503, json: { error: 'unavailable', message } }),
    });
    await open();
    const row = screen.getByTestId('template-row-1');
    fireEvent.click(within(row).getByTestId('template-screenshot'));
    await waitFor(() => expect(toasts()).toContain(`error:Falhou: ${message}`));
    // The stored thumbnail stays.
    expect(within(row).getByTestId('template-thumbnail').getAttribute('src')).toBe('/files/templates/1.png');
  });

  it('shows the list error', async () => {
    api({
      'GET /erp/templateList': () => ({
        status: 403,
        json: { error: 'admin_only', message: 'Administrators only' },
      }),
    });
    renderRoutes(routes, '/erp/templates');
    expect((await screen.findByTestId('template-admin-error')).textContent).toBe('Somente administradores.');
  });
});
