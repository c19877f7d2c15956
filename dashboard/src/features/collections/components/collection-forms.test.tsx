// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { paths } from '@/app/paths';
import { projectFixture, userFixture } from '@/testing/fixtures';
import { expectFieldError, expectFocused } from '@/testing/forms';
import { mockApi, renderRoutes, type ApiCall, type Handler } from '@/testing/render-route';
import { FieldModal } from '@/features/collections/components/FieldModal';
import { RecordFormRoute } from '@/features/collections/routes/RecordsRoute';
import { TableEditRoute } from '@/features/collections/routes/TableEditRoute';
import { DEFAULT_TABLE_META, type Field, type Table } from '@/features/collections/types';

const posts = (calls: ApiCall[], url: string) => calls.filter((c) => c.method === 'POST' && c.url === url);
const type = (testId: string, value: string) =>
  fireEvent.change(screen.getByTestId(testId), { target: { value } });

function field(id: number, overrides: Partial<Field>): Field {
  return {
    id,
    table_id: 3,
    name: `Campo ${id}`,
    slug: `campo-${id}`,
    type: 'string',
    required: '0',
    options: [],
    meta: {},
    order: id,
    ...overrides,
  };
}

const table = (overrides: Partial<Table> = {}): Table => ({
  id: 3,
  project_id: 7,
  name: 'Imóveis',
  slug: 'imoveis',
  meta: { ...DEFAULT_TABLE_META, plural: 'Imóveis', singular: 'Imóvel' },
  fields: [
    field(11, { name: 'Endereço', slug: 'endereco', type: 'text', required: '1' }),
    field(12, { name: 'Quartos', slug: 'quartos', type: 'select', options: [{ name: '1' }, { name: '2' }] }),
    field(13, { name: 'Tags', slug: 'tags', type: 'multiselect', required: '1', options: [{ name: 'a' }] }),
  ],
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  ...overrides,
});

function api(handlers: Record<string, Handler> = {}) {
  return mockApi({
    'GET /api/user': () => ({ json: userFixture() }),
    'GET /api/projects/7': () => ({ json: projectFixture(7, { name: 'Loja' }) }),
    'GET /api/tables/3': () => ({ json: table() }),
    ...handlers,
  });
}

describe('collection form (new collection)', () => {
  const routes = [
    { path: paths.projectTableNew.pattern, element: <TableEditRoute isNew /> },
    { path: paths.projectTableFields.pattern, element: <p data-testid="fields-page" /> },
  ];

  it('shows name, plural and singular errors at their fields and focuses the name', async () => {
    const calls = api();
    renderRoutes(routes, '/project/7/table/new');
    fireEvent.click(await screen.findByTestId('collection-save'));
    await expectFieldError('collection-name', 'O nome é obrigatório');
    await expectFieldError('collection-plural', 'O plural é obrigatório');
    await expectFieldError('collection-singular', 'O singular é obrigatório');
    await expectFocused('collection-name');
    expect(posts(calls, '/api/tables')).toHaveLength(0);
  });

  it('fills the slug from the name, sends the collection and opens its fields', async () => {
    const calls = api({
      'POST /api/tables': ({ body }) => ({ json: { ...table(), ...(body as object), id: 9 } }),
    });
    const router = renderRoutes(routes, '/project/7/table/new');
    await screen.findByTestId('collection-form');
    type('collection-name', 'Imóveis à Venda');
    fireEvent.blur(screen.getByTestId('collection-name'));
    expect(screen.getByTestId<HTMLInputElement>('collection-slug').value).toBe('imoveis-a-venda');
    type('collection-plural', 'Imóveis');
    type('collection-singular', 'Imóvel');
    fireEvent.change(screen.getByTestId('collection-order-field2'), { target: { value: 'name' } });
    fireEvent.click(screen.getByTestId('collection-save'));
    await screen.findByTestId('fields-page');
    expect(router.state.location.pathname).toBe('/project/7/table/9/fields');
    expect(posts(calls, '/api/tables')[0]?.body).toEqual({
      project_id: 7,
      name: 'Imóveis à Venda',
      slug: 'imoveis-a-venda',
      meta: {
        ...DEFAULT_TABLE_META,
        plural: 'Imóveis',
        singular: 'Imóvel',
        orderField2: 'name',
        orderDir2: 'asc',
      },
    });
  });

  it('refuses a slug that normalises to nothing, and shows a server error at the field it names', async () => {
    const calls = api({
      'POST /api/tables': () => ({
        status: 422,
        json: { error: 'required', message: 'Plural is required', field: 'plural' },
      }),
    });
    renderRoutes(routes, '/project/7/table/new');
    await screen.findByTestId('collection-form');
    type('collection-name', 'Casas');
    type('collection-slug', '!!!');
    type('collection-plural', 'Casas');
    type('collection-singular', 'Casa');
    fireEvent.click(await screen.findByTestId('collection-save'));
    await expectFieldError('collection-slug', 'O slug é obrigatório');
    expect(posts(calls, '/api/tables')).toHaveLength(0);

    type('collection-slug', 'casas');
    fireEvent.click(screen.getByTestId('collection-save'));
    await expectFieldError('collection-plural', 'Este campo é obrigatório');
    await expectFocused('collection-plural');
    expect(screen.queryByTestId('collection-error')).toBeNull();
  });
});

describe('collection names', () => {
  it('shows at the name, in Portuguese, that another collection of the project has it', async () => {
    api({
      'POST /api/tables': () => ({
        status: 409,
        json: {
          error: 'collection_name_taken',
          message: 'Another collection of this project already has this name',
          field: 'name',
        },
      }),
    });
    renderRoutes(
      [{ path: paths.projectTableNew.pattern, element: <TableEditRoute isNew /> }],
      '/project/7/table/new',
    );
    await screen.findByTestId('collection-form');
    type('collection-name', 'Produtos');
    type('collection-plural', 'Produtos');
    type('collection-singular', 'Produto');
    fireEvent.click(screen.getByTestId('collection-save'));
    await expectFieldError('collection-name', 'Já existe uma coleção com este nome neste projeto.');
    await expectFocused('collection-name');
  });

  it('says so when an existing collection is renamed onto another one', async () => {
    api({
      'POST /api/tables/3': () => ({
        status: 409,
        json: { error: 'collection_name_taken', message: 'taken', field: 'name' },
      }),
    });
    renderRoutes(
      [{ path: paths.projectTable.pattern, element: <TableEditRoute isNew={false} /> }],
      '/project/7/table/3',
    );
    await screen.findByTestId('collection-form');
    type('collection-name', 'Serviços');
    fireEvent.click(screen.getByTestId('collection-save'));
    await expectFieldError('collection-name', 'Já existe uma coleção com este nome neste projeto.');
  });
});

describe('field modal', () => {
  function openModal(handlers: Record<string, Handler> = {}, editing?: Field) {
    const calls = api(handlers);
    const onSaved = vi.fn();
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <FieldModal
              tableId={3}
              field={editing}
              otherTables={[{ id: 5, name: 'Autores' } as never]}
              uploadPrefix={[1, 7]}
              onClose={vi.fn()}
              onSaved={onSaved}
            />
          ),
        },
      ],
      '/',
    );
    return { calls, onSaved };
  }

  it('shows name and type errors at their fields, then the relation collection', async () => {
    const { calls } = openModal();
    fireEvent.click(await screen.findByTestId('field-save'));
    await expectFieldError('field-name', 'O nome é obrigatório');
    await expectFieldError('field-type', 'O tipo é obrigatório');
    await expectFocused('field-name');

    type('field-name', 'Autor');
    type('field-type', 'relation');
    fireEvent.click(screen.getByTestId('field-save'));
    await expectFieldError('field-relation', 'A coleção relacionada é obrigatória');
    await expectFocused('field-relation');
    expect(posts(calls, '/api/fields')).toHaveLength(0);
  });

  it('asks for at least one option, at the options', async () => {
    const { calls } = openModal();
    type('field-name', 'Cor');
    type('field-type', 'select');
    fireEvent.click(await screen.findByTestId('field-option-add'));
    fireEvent.click(screen.getByTestId('field-save'));
    const options = await screen.findByTestId('field-options');
    await waitFor(() =>
      expect(within(options).getByRole('alert').textContent).toBe('Adicione pelo menos uma opção'),
    );
    const group = within(options).getByRole('group');
    expect(document.getElementById(group.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Adicione pelo menos uma opção',
    );
    expect(posts(calls, '/api/fields')).toHaveLength(0);
  });

  it('sends a valid field with only the settings of its type', async () => {
    const saved = field(20, { name: 'Autor', slug: 'autor', type: 'relation', meta: { table: 5 } });
    const { calls, onSaved } = openModal({ 'POST /api/fields': () => ({ json: saved }) });
    type('field-name', 'Autor');
    fireEvent.blur(await screen.findByTestId('field-name'));
    type('field-type', 'relation');
    type('field-relation', '5');
    fireEvent.click(screen.getByTestId('field-required'));
    fireEvent.click(screen.getByTestId('field-save'));
    await waitFor(() => expect(onSaved.mock.calls[0]?.[0]).toEqual(saved));
    expect(posts(calls, '/api/fields')[0]?.body).toEqual({
      table_id: 3,
      name: 'Autor',
      slug: 'autor',
      type: 'relation',
      required: '1',
      options: [],
      meta: { table: 5 },
    });
  });

  it("shows the server's slug refusal at the slug", async () => {
    const message = 'Choose another slug: this one is empty or reserved';
    openModal({
      'POST /api/fields': () => ({ status: 422, json: { error: 'slug_reserved', message, field: 'slug' } }),
    });
    type('field-name', 'Preço');
    type('field-type', 'currency');
    fireEvent.click(await screen.findByTestId('field-save'));
    await expectFieldError('field-slug', 'Este endereço é reservado, escolha outro');
    await expectFocused('field-slug');
    expect(screen.queryByTestId('field-error')).toBeNull();
  });
});

describe('record form', () => {
  const routes = [
    { path: paths.projectRecordNew.pattern, element: <RecordFormRoute /> },
    { path: paths.projectTableData.pattern, element: <p data-testid="records-page" /> },
  ];

  it('lists the required fields left empty and shows each error at its field', async () => {
    const calls = api();
    renderRoutes(routes, '/project/7/table/3/browse/new');
    fireEvent.click(await screen.findByTestId('record-save'));
    const missing = await screen.findByTestId('record-missing');
    expect(missing.textContent).toBe(
      'Por favor, preencha todos os campos obrigatórios:TítuloSlugEndereçoTags',
    );
    await expectFieldError('record-title', 'O título é obrigatório');
    await expectFieldError('record-slug', 'O slug é obrigatório');
    await expectFieldError('field-endereco', 'Este campo é obrigatório');
    await expectFieldError('field-tags', 'Este campo é obrigatório');
    expect(screen.getByTestId('field-quartos').getAttribute('aria-invalid')).toBeNull();
    await expectFocused('record-title');
    expect(posts(calls, '/api/posts')).toHaveLength(0);

    type('record-title', 'Casa Azul');
    fireEvent.blur(screen.getByTestId('record-title'));
    fireEvent.click(screen.getByTestId('record-save'));
    await expectFocused('field-endereco');
    expect(screen.getByTestId('record-missing').textContent).toBe(
      'Por favor, preencha todos os campos obrigatórios:EndereçoTags',
    );
  });

  it('sends the record with its values in their stored shape', async () => {
    const calls = api({ 'POST /api/posts': ({ body }) => ({ json: { id: 40, ...(body as object) } }) });
    const router = renderRoutes(routes, '/project/7/table/3/browse/new');
    await screen.findByTestId('record-form');
    type('record-title', ' Casa Azul à Venda ');
    fireEvent.blur(screen.getByTestId('record-title'));
    type('field-endereco', 'Rua A, 1');
    type('field-quartos', '2');
    fireEvent.click(within(screen.getByTestId('field-tags')).getByLabelText('a'));
    fireEvent.click(screen.getByTestId('record-save'));
    await screen.findByTestId('records-page');
    expect(router.state.location.pathname).toBe('/project/7/table/3/browse');
    expect(posts(calls, '/api/posts')[0]?.body).toEqual({
      table_id: 3,
      name: 'Casa Azul à Venda',
      slug: 'casa-azul-a-venda',
      fields: [
        { field_id: 11, value: 'Rua A, 1' },
        { field_id: 12, value: '2' },
        { field_id: 13, value: ['a'] },
      ],
    });
  });

  it("shows the server's refusals at the slug and at the field they name", async () => {
    let answer = 0;
    api({
      'POST /api/posts': () =>
        answer++ === 0
          ? {
              status: 409,
              json: {
                error: 'record_slug_taken',
                message: 'A record with this slug already exists',
                field: 'slug',
              },
            }
          : {
              status: 422,
              json: {
                error: 'value_too_long',
                message: 'Endereço must be at most 65535 characters',
                params: { field: 'Endereço', max: 65535 },
                details: [
                  {
                    column: 'endereco',
                    field_id: 11,
                    code: 'value_too_long',
                    message: 'Endereço must be at most 65535 characters',
                    params: { field: 'Endereço', max: 65535 },
                  },
                ],
              },
            },
    });
    renderRoutes(routes, '/project/7/table/3/browse/new');
    await screen.findByTestId('record-form');
    type('record-title', 'Casa');
    fireEvent.blur(screen.getByTestId('record-title'));
    type('field-endereco', 'Rua A');
    fireEvent.click(within(screen.getByTestId('field-tags')).getByLabelText('a'));
    fireEvent.click(screen.getByTestId('record-save'));
    await expectFieldError('record-slug', 'Já existe um cadastro com este slug.');
    await expectFocused('record-slug');
    expect(screen.queryByTestId('record-missing')).toBeNull();

    fireEvent.click(screen.getByTestId('record-save'));
    await expectFieldError('field-endereco', 'Endereço deve ter no máximo 65535 caracteres.');
    await expectFocused('field-endereco');
  });
});
