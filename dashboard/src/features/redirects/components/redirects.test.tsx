// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getToasts } from '@/testing/toasts';
import { acceptConfirm, confirmText } from '@/testing/dialogs';
import { mockApi, renderRoutes } from '@/testing/render-route';
import { pageFixture, projectFixture } from '@/testing/fixtures';
import { paths } from '@/app/paths';
import {
  RedirectEditRoute,
  RedirectNewRoute,
  RedirectsRoute,
} from '@/features/redirects/routes/RedirectsRoute';
import type { Redirect } from '@/features/redirects/types';

const routes = [
  { path: '/', element: <p>home</p> },
  {
    path: paths.projectRedirects.pattern,
    element: <RedirectsRoute />,
    children: [
      { path: paths.projectRedirectNew.pattern, element: <RedirectNewRoute /> },
      { path: paths.projectRedirectEdit.pattern, element: <RedirectEditRoute /> },
    ],
  },
];

const LIST = '/api/projects/7/redirects';
const rule = (id: number, from: string, to: string): Redirect => ({
  id,
  from,
  to,
  created_at: '2025-03-01T12:00:00Z',
  project_id: 7,
});
const rules = [rule(1, '/antigo', '/novo'), rule(2, '/blog/*', 'https://blog.example.com/*')];

const listCalls = (calls: { method: string; url: string }[]) =>
  calls
    .filter((c) => c.method === 'GET' && c.url.startsWith(LIST))
    .map((c) => new URL(c.url, 'http://x').searchParams);

describe('redirect list', () => {
  it('shows the API page and asks again when order, page size, search and page change', async () => {
    const calls = mockApi({
      'GET /api/projects/7': () => ({ json: projectFixture(7) }),
      [`GET ${LIST}`]: ({ url }) => {
        const page = Number(new URL(url, 'http://x').searchParams.get('page'));
        return { json: pageFixture(rules, 12, page, 10, LIST) };
      },
    });
    renderRoutes(routes, '/project/7/redirects');
    await screen.findByText('/antigo');
    expect(screen.getByTestId('page-range').textContent).toBe('1–2 de 12');
    expect(listCalls(calls)[0]?.toString()).toBe('page=1&order=-created_at&limit=100');

    fireEvent.change(screen.getByTestId('redirect-order'), { target: { value: 'from' } });
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('order')).toBe('from'));

    fireEvent.change(screen.getByTestId('redirect-page-size'), { target: { value: '-1' } });
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('limit')).toBe('-1'));

    fireEvent.change(screen.getByTestId('redirect-search'), { target: { value: ' blog ' } });
    fireEvent.click(screen.getByTestId('redirect-search-submit'));
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('term')).toBe('blog'));

    fireEvent.click(screen.getByTestId('page-next'));
    await waitFor(() =>
      expect(listCalls(calls).at(-1)?.toString()).toBe('page=2&order=from&limit=-1&term=blog'),
    );
  });

  it('sorts by a column header, which says how the list is sorted', async () => {
    const calls = mockApi({
      'GET /api/projects/7': () => ({ json: projectFixture(7) }),
      [`GET ${LIST}`]: () => ({ json: pageFixture(rules, 2, 1, 100, LIST) }),
    });
    renderRoutes(routes, '/project/7/redirects');
    await screen.findByText('/antigo');
    const header = (id: string) => screen.getByTestId(`sort-${id}`).closest('th') as HTMLElement;
    expect(header('created_at').getAttribute('aria-sort')).toBe('descending');
    expect(header('from').getAttribute('aria-sort')).toBe('none');
    fireEvent.click(screen.getByTestId('sort-from'));
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('order')).toBe('from'));
    await waitFor(() => expect(header('from').getAttribute('aria-sort')).toBe('ascending'));
    fireEvent.click(screen.getByTestId('sort-from'));
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('order')).toBe('-from'));
    // The destination cannot be ordered by the server: no sort button.
    expect(screen.queryByTestId('sort-to')).toBeNull();
  });

  it('deletes a rule after confirmation and reloads the page', async () => {
    const calls = mockApi({
      'GET /api/projects/7': () => ({ json: projectFixture(7) }),
      [`GET ${LIST}`]: () => ({ json: pageFixture(rules, 2, 1, 100, LIST) }),
      'DELETE /api/redirects/2': () => ({ status: 204 }),
    });
    renderRoutes(routes, '/project/7/redirects');
    const row = (await screen.findByText('/blog/*')).closest('tr');
    fireEvent.click(within(row as HTMLElement).getByTestId('redirect-delete'));
    expect(await confirmText()).toBe(
      'Excluir o redirecionamento de /blog/*? Esta ação não pode ser desfeita.',
    );
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await acceptConfirm();
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/redirects/2')).toBe(true),
    );
    await waitFor(() => expect(listCalls(calls)).toHaveLength(2));
  });
});

describe('redirect form', () => {
  const type = (testId: string, value: string) =>
    fireEvent.change(screen.getByTestId(testId), { target: { value } });
  const save = () => screen.getByTestId<HTMLButtonElement>('redirect-save');

  function api(post: () => { status?: number; json?: unknown }) {
    return mockApi({
      'GET /api/projects/7': () => ({ json: projectFixture(7) }),
      [`GET ${LIST}`]: () => ({ json: pageFixture(rules, 2, 1, 100, LIST) }),
      'GET /api/redirects/1': () => ({ json: rules[0] }),
      'POST /api/redirects': post,
      'POST /api/redirects/1': post,
    });
  }

  it("keeps Save disabled while the rule is invalid, with the spec's messages as the owner types", async () => {
    api(() => ({ status: 500 }));
    renderRoutes(routes, '/project/7/redirects/new');
    await screen.findByTestId('redirect-form');
    expect(save().disabled).toBe(true);
    expect(screen.queryByRole('alert')).toBeNull();

    type('redirect-from-input', '/a b');
    const spaces = await screen.findByText('A url não pode ter espaços.');
    // The error is tied to its input.
    const from = screen.getByTestId('redirect-from-input');
    expect(from.getAttribute('aria-invalid')).toBe('true');
    expect(from.getAttribute('aria-describedby')).toContain(spaces.id);
    type('redirect-from-input', '/a?b');
    expect(await screen.findByText('A url contém o carectere "?" inválido.')).toBeTruthy();
    type('redirect-from-input', '/a');
    type('redirect-to-input', '/a/');
    expect(await screen.findByText('URL destino deve ser diferente da url de origem')).toBeTruthy();
    expect(save().disabled).toBe(true);
    type('redirect-to-input', '/b');
    await waitFor(() => expect(save().disabled).toBe(false));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('warns that * redirects the whole site', async () => {
    api(() => ({ status: 500 }));
    renderRoutes(routes, '/project/7/redirects/new');
    await screen.findByTestId('redirect-form');
    type('redirect-from-input', '*');
    expect(screen.getByTestId('redirect-warning').textContent).toBe(
      'Atenção: a url * redireciona o site inteiro.',
    );
    expect(save().disabled).toBe(true);
    type('redirect-to-input', 'https://novo.example.com/*');
    expect(screen.getByTestId('redirect-warning')).toBeTruthy();
    await waitFor(() => expect(save().disabled).toBe(false));
    type('redirect-from-input', '/*');
    expect(screen.queryByTestId('redirect-warning')).toBeNull();
  });

  it('saves the normalised rule and goes back to the list with its query', async () => {
    const calls = api(() => ({ status: 201, json: rule(3, '/velho', '/novo') }));
    const router = renderRoutes(routes, '/project/7/redirects/new?order=from');
    await screen.findByTestId('redirect-form');
    type('redirect-from-input', 'velho/');
    type('redirect-to-input', '/novo');
    await waitFor(() => expect(save().disabled).toBe(false));
    fireEvent.click(save());
    await waitFor(() => expect(router.state.location.pathname).toBe('/project/7/redirects'));
    expect(router.state.location.search).toBe('?order=from');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      project_id: 7,
      from: '/velho',
      to: '/novo',
    });
    await waitFor(() => expect(screen.queryByTestId('redirect-form')).toBeNull());
  });

  it('saves a rule that hides a page, and says which page, translated, in a warning toast', async () => {
    api(() => ({
      status: 201,
      json: {
        ...rule(3, '/sobre', '/contato'),
        warnings: [
          {
            code: 'redirect_hides_page',
            message:
              'Saved, but this redirect hides the page "Sobre" (/sobre): visitors are sent to /contato',
            params: { page: 'Sobre', path: '/sobre', from: '/sobre' },
          },
        ],
      },
    }));
    const router = renderRoutes(routes, '/project/7/redirects/new');
    await screen.findByTestId('redirect-form');
    type('redirect-from-input', '/sobre');
    type('redirect-to-input', '/contato');
    await waitFor(() => expect(save().disabled).toBe(false));
    fireEvent.click(save());
    await waitFor(() => expect(router.state.location.pathname).toBe('/project/7/redirects'));
    await waitFor(() =>
      expect(getToasts()).toContainEqual({
        kind: 'warning',
        message:
          'Salvo, mas atenção: este redirecionamento esconde a página “Sobre” (/sobre). Quem abrir esse endereço vai para o destino, não para a página.',
      }),
    );
    expect(getToasts().map((toast) => toast.message)).toContain('Redirecionamento salvo');
  });

  it("shows the server's text in an 'Erro' toast and beside the field", async () => {
    const message = 'Já existe um redirecionamento para esta url de origem.';
    const calls = api(() => ({
      status: 409,
      json: { error: 'redirect_from_taken', message, field: 'from' },
    }));
    renderRoutes(routes, '/project/7/redirects/edit/1');
    await waitFor(() =>
      expect(screen.getByTestId<HTMLInputElement>('redirect-from-input').value).toBe('/antigo'),
    );
    type('redirect-to-input', '/outro');
    await waitFor(() => expect(save().disabled).toBe(false));
    fireEvent.click(save());
    await waitFor(() => expect(getToasts().map((toast) => toast.message)).toContain(`Erro: ${message}`));
    expect(within(screen.getByTestId('redirect-form')).getByRole('alert').textContent).toBe(message);
    // Set on the field the server named, which takes the focus.
    expect(screen.getByTestId('redirect-from-input').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(screen.getByTestId('redirect-from-input'));
    expect(calls.find((c) => c.method === 'POST')?.url).toBe('/api/redirects/1');
    expect(screen.getByTestId('redirect-form')).toBeTruthy();
  });
});
