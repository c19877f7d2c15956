// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { paths } from '@/app/paths';
import { projectFixture, userFixture } from '@/testing/fixtures';
import { mockApi, renderRoutes, type ApiCall } from '@/testing/render-route';
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

function api() {
  return mockApi({
    'GET /api/projects/7': () => ({ json: project }),
    'GET /api/user': () => ({ json: userFixture() }),
    'POST /api/pages': (call) => ({ status: 201, json: page(40, call.body as Record<string, unknown>) }),
    'POST /api/page/40': (call) => ({ json: page(40, call.body as Record<string, unknown>) }),
  });
}

const posts = (calls: ApiCall[]) => calls.filter((call) => call.method === 'POST');

async function openDialog() {
  const calls = api();
  const router = renderRoutes(routes, '/project/7');
  const trigger = await screen.findByTestId('new-page');
  trigger.focus();
  fireEvent.click(trigger);
  const dialog = await screen.findByRole('dialog', { name: 'Nova página' });
  return { calls, router, dialog: within(dialog), trigger };
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

    fireEvent.click(within(dialog.getByTestId('new-page-collection')).getByRole('button'));
    fireEvent.click(await screen.findByRole('option', { name: 'Posts' }));
    fireEvent.click(dialog.getByTestId('new-page-create'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/project/7/40'));
    expect(posts(calls).map((call) => [call.url, call.body])).toEqual([
      ['/api/pages', { name: 'Serviços', project_id: 7 }],
      ['/api/page/40', { slug: 'servicos', table_id: 4 }],
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
