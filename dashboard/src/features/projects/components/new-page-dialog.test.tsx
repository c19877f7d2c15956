// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { paths } from '@/app/paths';
import { projectFixture, userFixture } from '@/testing/fixtures';
import { mockApi, renderRoutes, type ApiCall, type Handler } from '@/testing/render-route';
import { getToasts } from '@/testing/toasts';
import { ProjectOverviewRoute } from '@/features/projects/routes/ProjectOverviewRoute';

const routes = [
  { path: paths.project.pattern, element: <ProjectOverviewRoute /> },
  { path: paths.page.pattern, element: <p data-testid="editor">editor</p> },
];

const project = projectFixture(7, {
  tables: [
    { id: 3, name: 'Produtos', slug: 'produtos' },
    { id: 4, name: 'Posts', slug: 'posts' },
  ],
});

function page(id: number, body: Record<string, unknown>) {
  return {
    id,
    project_id: 7,
    name: 'Nossos Serviços',
    slug: 'nossos-servicos',
    description: null,
    image: null,
    meta: {},
    output: null,
    blocks: [],
    table_id: null,
    is_home: false,
    created_at: '2025-03-01T12:00:00Z',
    updated_at: '2025-03-01T12:00:00Z',
    ...body,
  };
}

function api(overrides: Record<string, Handler> = {}) {
  return mockApi({
    'GET /api/projects/7': () => ({ json: project }),
    'GET /api/user': () => ({ json: userFixture() }),
    'POST /api/pages': (call) => ({ status: 201, json: page(40, call.body as Record<string, unknown>) }),
    'POST /api/page/40': (call) => ({ json: page(40, call.body as Record<string, unknown>) }),
    ...overrides,
  });
}

const posts = (calls: ApiCall[]) => calls.filter((call) => call.method === 'POST');
const sent = (calls: ApiCall[]) =>
  calls.filter((call) => call.method !== 'GET').map((call) => [call.method, call.url, call.body]);

async function openDialog(overrides: Record<string, Handler> = {}) {
  const calls = api(overrides);
  const router = renderRoutes(routes, '/project/7');
  const trigger = await screen.findByTestId('new-page');
  trigger.focus();
  fireEvent.click(trigger);
  const dialog = await screen.findByRole('dialog', { name: 'Nova página' });
  return { calls, router, dialog: within(dialog), trigger };
}

/** The texts the control's aria-describedby names, joined. */
function description(control: HTMLElement): string {
  return (control.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' | ');
}

type DialogQueries = Awaited<ReturnType<typeof openDialog>>['dialog'];

/** The collection list's button (React Aria's Select). */
const collectionButton = (dialog: DialogQueries) =>
  within(dialog.getByTestId('new-page-collection')).getByRole('button');

async function chooseCollection(dialog: DialogQueries, name: string) {
  fireEvent.click(collectionButton(dialog));
  fireEvent.click(await screen.findByRole('option', { name }));
}

describe('new page dialog', () => {
  it('fills the slug in from the name and creates a static page with name and slug', async () => {
    const { calls, router, dialog } = await openDialog();
    const name = dialog.getByLabelText<HTMLInputElement>(/^Nome/);
    const slug = dialog.getByLabelText<HTMLInputElement>('Slug (endereço)');
    await waitFor(() => expect(document.activeElement).toBe(name));
    fireEvent.change(name, { target: { value: 'Nossos Serviços' } });
    expect(slug.value).toBe('nossos-servicos');
    fireEvent.click(dialog.getByTestId('new-page-create'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/project/7/40'));
    // The server derives the same slug from the name: one call.
    expect(posts(calls).map((call) => [call.url, call.body])).toEqual([
      ['/api/pages', { name: 'Nossos Serviços', project_id: 7 }],
    ]);
  });

  it('creates a page under an existing redirect and says, translated, that the redirect hides it', async () => {
    const warning = {
      code: 'page_under_redirect',
      message: 'Saved, but the redirect /promo/* → /ofertas hides this page',
      params: { from: '/promo/*', to: '/ofertas', path: '/promo' },
    };
    const { router, dialog } = await openDialog({
      'POST /api/pages': (call) => ({
        status: 201,
        json: { ...page(40, call.body as Record<string, unknown>), slug: 'promo', warnings: [warning] },
      }),
    });
    fireEvent.change(dialog.getByLabelText(/^Nome/), { target: { value: 'Promo' } });
    fireEvent.click(dialog.getByTestId('new-page-create'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/project/7/40'));
    await waitFor(() =>
      expect(getToasts()).toContainEqual({
        kind: 'warning',
        message:
          'Página salva, mas atenção: o redirecionamento /promo/* → /ofertas esconde esta página. Quem abrir /promo vai para /ofertas. Remova ou altere o redirecionamento para mostrar a página.',
      }),
    );
  });

  it('keeps an edited slug and makes a collection page of the chosen collection', async () => {
    const { calls, router, dialog } = await openDialog();
    fireEvent.change(dialog.getByLabelText(/^Nome/), { target: { value: 'Nossos Serviços' } });
    const slug = dialog.getByLabelText<HTMLInputElement>('Slug (endereço)');
    fireEvent.change(slug, { target: { value: 'servicos' } });
    fireEvent.change(dialog.getByLabelText(/^Nome/), { target: { value: 'Serviços' } });
    expect(slug.value).toBe('servicos');

    fireEvent.click(dialog.getByLabelText('Página de coleção'));
    // No collection chosen yet: refused at the field, nothing sent.
    fireEvent.click(dialog.getByTestId('new-page-create'));
    expect((await dialog.findByRole('alert')).textContent).toBe('Escolha a coleção da página.');
    expect(posts(calls)).toEqual([]);

    await chooseCollection(dialog, 'Posts');
    await waitFor(() => expect(dialog.queryByRole('alert')).toBeNull());
    fireEvent.click(dialog.getByTestId('new-page-create'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/project/7/40'));
    expect(posts(calls).map((call) => [call.url, call.body])).toEqual([
      ['/api/pages', { name: 'Serviços', project_id: 7, table_id: 4 }],
      ['/api/page/40', { slug: 'servicos' }],
    ]);
  });

  it('normalises a typed slug as the server does, and an emptied slug follows the name again', async () => {
    const { calls, router, dialog } = await openDialog();
    const name = dialog.getByLabelText<HTMLInputElement>(/^Nome/);
    const slug = dialog.getByLabelText<HTMLInputElement>('Slug (endereço)');
    fireEvent.change(name, { target: { value: 'Meu Post' } });
    fireEvent.change(slug, { target: { value: ' /Blog/Meu Post!/ ' } });
    fireEvent.blur(slug);
    expect(slug.value).toBe('blog/meu-post');

    fireEvent.change(slug, { target: { value: '' } });
    fireEvent.blur(slug);
    expect(slug.value).toBe('');
    fireEvent.change(name, { target: { value: 'Contato São Paulo' } });
    expect(slug.value).toBe('contato-sao-paulo');

    fireEvent.change(slug, { target: { value: 'Fale/Conosco' } });
    fireEvent.click(dialog.getByTestId('new-page-create'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/project/7/40'));
    expect(sent(calls)).toEqual([
      ['POST', '/api/pages', { name: 'Contato São Paulo', project_id: 7 }],
      ['POST', '/api/page/40', { slug: 'fale/conosco' }],
    ]);
  });

  it('asks for the name, and gives focus back to "+ Nova página" when cancelled', async () => {
    const { calls, dialog, trigger } = await openDialog();
    fireEvent.click(dialog.getByTestId('new-page-create'));
    expect((await dialog.findByText('Informe o nome da página.')).textContent).toBeTruthy();
    expect(posts(calls)).toEqual([]);
    fireEvent.click(dialog.getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(trigger));
  });

  it('shows each refused field at the field, linked by aria-describedby, and focuses the first', async () => {
    const { calls, dialog } = await openDialog();
    const name = dialog.getByLabelText<HTMLInputElement>(/^Nome/);
    fireEvent.click(dialog.getByLabelText('Página de coleção'));
    fireEvent.click(dialog.getByTestId('new-page-create'));

    // Both errors at once; the name comes first, so it takes the focus.
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
    expect(description(name)).toBe('Informe o nome da página.');
    await waitFor(() => expect(document.activeElement).toBe(name));
    const button = collectionButton(dialog);
    expect(description(button)).toBe('Escolha a coleção da página.');
    expect(dialog.getByTestId('new-page-collection').getAttribute('data-invalid')).toBe('true');

    // The name given, the collection is now the first invalid field: the focus goes to its button.
    fireEvent.change(name, { target: { value: 'Produto' } });
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBeNull());
    fireEvent.click(dialog.getByTestId('new-page-create'));
    await waitFor(() => expect(document.activeElement).toBe(collectionButton(dialog)));

    // Back to a static page, the collection's error is gone and the page can be made.
    fireEvent.click(dialog.getByLabelText('Página estática'));
    await waitFor(() => expect(dialog.queryByRole('alert')).toBeNull());
    expect(dialog.queryByTestId('new-page-collection')).toBeNull();
    expect(posts(calls)).toEqual([]);
  });

  it('refuses a name or a slug longer than the server takes (200 characters)', async () => {
    const { calls, dialog } = await openDialog();
    const name = dialog.getByLabelText<HTMLInputElement>(/^Nome/);
    const slug = dialog.getByLabelText<HTMLInputElement>('Slug (endereço)');
    fireEvent.change(name, { target: { value: 'é'.repeat(201) } });
    fireEvent.change(slug, { target: { value: 'a'.repeat(201) } });
    fireEvent.click(dialog.getByTestId('new-page-create'));
    await waitFor(() => expect(description(name)).toBe('No máximo 200 caracteres'));
    expect(description(slug)).toContain('No máximo 200 caracteres');
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(posts(calls)).toEqual([]);

    // 200 characters, counted as the server counts them (an accented letter is one), pass.
    fireEvent.change(name, { target: { value: 'é'.repeat(200) } });
    fireEvent.change(slug, { target: { value: 'a'.repeat(200) } });
    fireEvent.click(dialog.getByTestId('new-page-create'));
    await waitFor(() => expect(posts(calls).length).toBe(2));
    expect(posts(calls)[1]?.body).toEqual({ slug: 'a'.repeat(200) });
  });

  it("shows the server's refusal of the name at the name field", async () => {
    const { calls, router, dialog } = await openDialog({
      'POST /api/pages': () => ({
        status: 422,
        json: {
          error: 'too_long',
          field: 'name',
          message: 'name must be at most 200 characters',
          params: { max: 200 },
        },
      }),
    });
    const name = dialog.getByLabelText<HTMLInputElement>(/^Nome/);
    fireEvent.change(name, { target: { value: 'Serviços' } });
    fireEvent.click(dialog.getByTestId('new-page-create'));
    await waitFor(() => expect(description(name)).toBe('No máximo 200 caracteres'));
    expect(name.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(dialog.queryByTestId('new-page-dialog-error')).toBeNull();
    expect(router.state.location.pathname).toBe('/project/7');
    expect(sent(calls)).toEqual([['POST', '/api/pages', { name: 'Serviços', project_id: 7 }]]);
  });

  it('shows a slug another page has at the slug field, removes the page just made, and creates it once corrected', async () => {
    let refuse = true;
    const { calls, router, dialog } = await openDialog({
      'POST /api/page/40': (call) =>
        refuse
          ? {
              status: 409,
              json: {
                error: 'page_slug_taken',
                field: 'slug',
                message: 'A page with this slug already exists',
              },
            }
          : { json: page(40, call.body as Record<string, unknown>) },
      'DELETE /api/page/40': () => ({ status: 204 }),
    });
    fireEvent.change(dialog.getByLabelText(/^Nome/), { target: { value: 'Serviços' } });
    const slug = dialog.getByLabelText<HTMLInputElement>('Slug (endereço)');
    fireEvent.change(slug, { target: { value: 'contato' } });
    fireEvent.click(dialog.getByTestId('new-page-create'));
    await waitFor(() => expect(description(slug)).toContain('Já existe uma página com este slug.'));
    expect(slug.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(slug));
    expect(sent(calls)).toEqual([
      ['POST', '/api/pages', { name: 'Serviços', project_id: 7 }],
      ['POST', '/api/page/40', { slug: 'contato' }],
      ['DELETE', '/api/page/40', undefined],
    ]);

    refuse = false;
    fireEvent.change(slug, { target: { value: 'servicos-2' } });
    fireEvent.click(dialog.getByTestId('new-page-create'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/project/7/40'));
    expect(sent(calls).slice(3)).toEqual([
      ['POST', '/api/pages', { name: 'Serviços', project_id: 7 }],
      ['POST', '/api/page/40', { slug: 'servicos-2' }],
    ]);
  });

  it("shows the server's refusal of the collection at the collection list", async () => {
    const { dialog } = await openDialog({
      'POST /api/pages': () => ({
        status: 422,
        json: { error: 'unknown_collection', field: 'table_id', message: 'Unknown collection' },
      }),
    });
    fireEvent.change(dialog.getByLabelText(/^Nome/), { target: { value: 'Produto' } });
    fireEvent.click(dialog.getByLabelText('Página de coleção'));
    await chooseCollection(dialog, 'Produtos');
    fireEvent.click(dialog.getByTestId('new-page-create'));
    await waitFor(() => expect(description(collectionButton(dialog))).toBe('Essa coleção não existe.'));
    await waitFor(() => expect(document.activeElement).toBe(collectionButton(dialog)));
  });

  it('shows a refusal that names no field above the form', async () => {
    const { router, dialog } = await openDialog({
      'POST /api/pages': () => ({
        status: 403,
        json: { error: 'admin_only', message: 'Administrators only' },
      }),
    });
    fireEvent.change(dialog.getByLabelText(/^Nome/), { target: { value: 'Produto' } });
    fireEvent.click(dialog.getByTestId('new-page-create'));
    expect((await dialog.findByTestId('new-page-dialog-error')).textContent).toContain(
      'Somente administradores.',
    );
    expect(router.state.location.pathname).toBe('/project/7');
  });
});

describe('delete project', () => {
  it('confirms in a dialog that names the project and what is lost, and deletes only on confirm', async () => {
    const calls = mockApi({
      'GET /api/projects/7': () => ({ json: project }),
      'GET /api/user': () => ({ json: userFixture() }),
      'DELETE /api/projects/7': () => ({ status: 204 }),
      'GET /api/projects': () => ({ json: [] }),
    });
    renderRoutes([...routes, { path: paths.home.pattern, element: <p>home</p> }], '/project/7');
    fireEvent.click(await screen.findByTestId('delete-project'));
    const dialog = await screen.findByRole('alertdialog', { name: 'Excluir o projeto "Loja da Ana"?' });
    expect(dialog.textContent).toContain('Esta ação não pode ser desfeita.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    fireEvent.click(screen.getByTestId('delete-project'));
    fireEvent.click(await screen.findByRole('button', { name: 'Excluir projeto' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE')).toBe(true));
  });
});
