// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { paths } from '@/app/paths';
import { RequireBusinessAdmin } from '@/app/RequireBusinessAdmin';
import { clearToasts, getToasts } from '@/testing/toasts';
import type { BusinessBlock } from '@/lib/types';
import { userFixture } from '@/testing/fixtures';
import { expectFieldError, expectFocused } from '@/testing/forms';
import { mockApi, renderRoutes, type ApiCall, type Handler } from '@/testing/render-route';
import { scrollsInsideItsCard, tableHeaders } from '@/testing/tables';
import { BusinessLibraryRoute } from '@/features/business-library/routes/BusinessLibraryRoute';

const routes = [
  {
    element: <RequireBusinessAdmin />,
    children: [{ path: paths.businessBlocks.pattern, element: <BusinessLibraryRoute /> }],
  },
];

const me = (isBusinessAdmin: boolean) => userFixture({ business_id: 10, is_business_admin: isBusinessAdmin });

const capa: BusinessBlock = {
  id: 21,
  name: 'Capa da agência',
  image: '',
  keywords: 'topo',
  template: '<header>c</header>',
  css: '',
  js: '',
  order: 99,
  updated_at: '2026-03-04T10:20:00Z',
};

function api(
  handlers: Record<string, Handler> = {},
  isBusinessAdmin = true,
  blocks: BusinessBlock[] = [capa],
) {
  return mockApi({
    'GET /api/user': () => ({ json: me(isBusinessAdmin) }),
    'GET /api/business/blocks': () => ({ json: blocks }),
    'GET /api/blocks': () => ({ json: { categories: [], my_blocks: [], business_blocks: blocks } }),
    ...handlers,
  });
}

const toasts = () => getToasts().map((toast) => `${toast.kind}:${toast.message}`);
const listCalls = (calls: ApiCall[]) =>
  calls.filter((call) => call.method === 'GET' && call.url === '/api/business/blocks');
beforeEach(() => clearToasts());

describe("the business's block library screen", () => {
  it('is for business admins only: others see a notice and the library is not loaded', async () => {
    const calls = api({}, false);
    renderRoutes(routes, '/business/blocks');
    expect((await screen.findByTestId('forbidden')).textContent).toContain(
      'Esta tela é só para administradores da empresa.',
    );
    expect(listCalls(calls)).toHaveLength(0);
  });

  /** Saves the open form with `image` as the thumbnail. */
  function saveImage(image: string) {
    fireEvent.change(screen.getByTestId('business-block-image'), { target: { value: image } });
    fireEvent.click(screen.getByTestId('business-block-form-save'));
  }

  /** Opens the edit form of block 21 from the list. */
  async function openEdit() {
    renderRoutes(routes, '/business/blocks');
    fireEvent.click(
      within(await screen.findByTestId('business-block-row-21')).getByTestId('business-block-edit'),
    );
  }

  it("lists the business's blocks, or says there are none", async () => {
    api();
    renderRoutes(routes, '/business/blocks');
    const row = within(await screen.findByTestId('business-block-row-21'));
    expect(row.getByTestId('business-block-row-name').textContent).toBe('Capa da agência');
    expect(row.getByText('topo')).toBeTruthy();
  });

  it('shows them in a table that scrolls in its card, with headers that do not sort (the API takes no order)', async () => {
    api();
    renderRoutes(routes, '/business/blocks');
    const table = await screen.findByTestId('business-library-table');
    expect(scrollsInsideItsCard(table)).toBe(true);
    expect(tableHeaders(table)).toEqual([
      { text: 'Nome', sort: null },
      { text: 'Palavras-chave', sort: null },
      { text: 'Ordem', sort: null },
      { text: 'Atualizado em', sort: null },
      { text: 'Ações', sort: null },
    ]);
    expect(table.querySelector('.sort-button')).toBeNull();
    expect(table.querySelector('input[type="checkbox"]')).toBeNull();
  });

  it('says when the library is empty', async () => {
    api({}, true, []);
    renderRoutes(routes, '/business/blocks');
    expect((await screen.findByTestId('business-library-empty')).textContent).toBe(
      'Sua empresa ainda não tem blocos.',
    );
  });

  it("shows the server's message when the library can't be loaded", async () => {
    api({
      'GET /api/business/blocks': () => ({ status: 404, json: { error: 'not_found', message: 'Not found' } }),
    });
    renderRoutes(routes, '/business/blocks');
    expect((await screen.findByTestId('business-library-error')).textContent).toBe('Não encontrado');
  });

  it('edits name, keywords, thumbnail and order, checking them first, then refreshes the list', async () => {
    const calls = api({
      'POST /api/business/blocks/21': (call) => ({ json: { ...capa, ...(call.body as object) } }),
    });
    await openEdit();
    const form = within(screen.getByTestId('business-block-form'));
    fireEvent.change(form.getByTestId('business-block-name'), { target: { value: ' ' } });
    fireEvent.change(form.getByTestId('business-block-order'), { target: { value: '-1' } });
    fireEvent.click(form.getByTestId('business-block-form-save'));
    await expectFieldError('business-block-name', 'O nome do bloco é obrigatório');
    await expectFieldError('business-block-order', 'A ordem deve ser um número inteiro de 0 a 1000000');
    await expectFocused('business-block-name');
    fireEvent.change(form.getByTestId('business-block-name'), { target: { value: 'Capa nova' } });
    fireEvent.click(form.getByTestId('business-block-form-save'));
    await expectFocused('business-block-order');
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    fireEvent.change(form.getByTestId('business-block-order'), { target: { value: '2' } });
    fireEvent.change(form.getByTestId('business-block-keywords'), { target: { value: 'topo, capa' } });
    fireEvent.click(form.getByTestId('business-block-form-save'));
    await waitFor(() => expect(screen.queryByTestId('business-block-form')).toBeNull());
    expect(calls.find((call) => call.method === 'POST')).toEqual({
      method: 'POST',
      url: '/api/business/blocks/21',
      body: { name: 'Capa nova', keywords: 'topo, capa', image: '', order: 2 },
    });
    expect(toasts()).toEqual(['success:"Capa nova" salvo.']);
    await waitFor(() => expect(listCalls(calls)).toHaveLength(2));
  });

  it("shows the server's refusal at the field it names and keeps the form open", async () => {
    api({
      'POST /api/business/blocks/21': () => ({
        status: 422,
        json: {
          error: 'image_url_invalid',
          field: 'image',
          message: 'The image must be an uploaded file or an http(s) address (2048 characters at most)',
        },
      }),
    });
    await openEdit();
    saveImage('https://cdn.example.com/capa.png');
    await expectFieldError(
      'business-block-image',
      'A imagem deve ser um arquivo enviado ou um endereço http(s) (no máximo 2048 caracteres)',
    );
    await expectFocused('business-block-image');
    expect(screen.queryByTestId('business-block-form-error')).toBeNull();
    expect(screen.getByTestId('business-block-form')).toBeTruthy();
  });

  it('refuses a javascript: thumbnail at its field without calling the server', async () => {
    const calls = api();
    await openEdit();
    saveImage('javascript:void(document.cookie)');
    await expectFieldError(
      'business-block-image',
      'A imagem deve ser um arquivo enviado ou um endereço http(s) (no máximo 2048 caracteres)',
    );
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('deletes a block only after confirming in a modal', async () => {
    const calls = api({ 'DELETE /api/business/blocks/21': () => ({ status: 204 }) });
    renderRoutes(routes, '/business/blocks');
    fireEvent.click(
      within(await screen.findByTestId('business-block-row-21')).getByTestId('business-block-delete'),
    );
    const modal = within(screen.getByTestId('business-block-delete-modal'));
    fireEvent.click(modal.getByText('Cancelar'));
    expect(screen.queryByTestId('business-block-delete-modal')).toBeNull();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);

    fireEvent.click(screen.getByTestId('business-block-delete'));
    fireEvent.click(
      within(screen.getByTestId('business-block-delete-modal')).getByTestId('business-block-delete-confirm'),
    );
    await waitFor(() => expect(toasts()).toEqual(['success:"Capa da agência" foi excluído.']));
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.url)).toEqual([
      '/api/business/blocks/21',
    ]);
    expect(screen.queryByTestId('business-block-delete-modal')).toBeNull();
  });

  it("shows the server's refusal of a delete and keeps the block", async () => {
    api({
      'DELETE /api/business/blocks/21': () => ({
        status: 403,
        json: {
          error: 'library_admin_only',
          message: "Only the business's administrators can change its block library",
        },
      }),
    });
    renderRoutes(routes, '/business/blocks');
    fireEvent.click(
      within(await screen.findByTestId('business-block-row-21')).getByTestId('business-block-delete'),
    );
    fireEvent.click(screen.getByTestId('business-block-delete-confirm'));
    await waitFor(() =>
      expect(toasts()).toEqual([
        'error:Somente os administradores da empresa podem alterar a biblioteca de blocos dela.',
      ]),
    );
    expect(screen.getByTestId('business-block-row-21')).toBeTruthy();
  });
});
