// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Layout } from '@/app/Layout';
import { paths } from '@/app/paths';
import { RequireAdmin } from '@/app/RequireAdmin';
import { RequireAuth } from '@/app/RequireAuth';
import { clearToasts, getToasts } from '@/testing/toasts';
import { setLanguage } from '@/lib/i18n';
import type { User } from '@/lib/types';
import { mockApi, renderRoutes, type Handler } from '@/testing/render-route';
import { scrollsInsideItsCard, tableHeaders } from '@/testing/tables';
import { loadPage } from '@/features/user-admin/lib/load-page';
import { UserAdminRoute } from '@/features/user-admin/routes/UserAdminRoute';
import type { AdminUserRow } from '@/features/user-admin/types';

vi.mock('@/features/user-admin/lib/load-page', () => ({ loadPage: vi.fn() }));

const me = (overrides: Partial<User> = {}): User => ({
  id: 1,
  name: 'Ana',
  email: 'ana@example.com',
  language: 'pt-BR',
  currency: 'BRL',
  business_id: null,
  is_admin: true,
  is_business_admin: false,
  permissions: {},
  created_at: '2025-01-01T00:00:00Z',
  ...overrides,
});

const rows = (): AdminUserRow[] => [
  { id: 1, created_at: '2025-01-01T12:00:00Z', name: 'Ana', email: 'ana@example.com' },
  { id: 7, created_at: '2025-03-15T12:00:00Z', name: 'Bruno', email: 'bruno@example.com' },
];

const routes = [
  {
    element: <Layout />,
    children: [
      // As in the app: the home screen is signed-in only (RequireAuth asks for the user).
      {
        element: <RequireAuth />,
        children: [{ path: paths.home.pattern, element: <p data-testid="home">home</p> }],
      },
      {
        element: <RequireAdmin />,
        children: [{ path: paths.erpUsers.pattern, element: <UserAdminRoute /> }],
      },
    ],
  },
];

function api(user: User, handlers: Record<string, Handler> = {}) {
  return mockApi({
    'GET /api/user': () => ({ json: user }),
    'GET /api/users': () => ({ json: rows() }),
    ...handlers,
  });
}

beforeEach(() => {
  vi.mocked(loadPage).mockClear();
  clearToasts();
});

describe('administrator users screen (/erp/users)', () => {
  it('keeps users who are not administrators out, without listing accounts', async () => {
    const calls = api(me({ is_admin: false }));
    renderRoutes(routes, '/erp/users');
    await screen.findByTestId('forbidden');
    expect(calls.some((c) => c.url === '/api/users')).toBe(false);
  });

  it('lists id, created date, name and email of every account', async () => {
    api(me());
    renderRoutes(routes, '/erp/users');
    await screen.findByTestId('user-admin');
    const bruno = screen.getByTestId('user-admin-row-7');
    expect(within(bruno).getByTestId('user-admin-id').textContent).toBe('7');
    expect(within(bruno).getByTestId('user-admin-created').textContent).toBe('15/03/2025');
    expect(within(bruno).getByTestId('user-admin-name').textContent).toBe('Bruno');
    expect(within(bruno).getByTestId('user-admin-email').textContent).toBe('bruno@example.com');
    expect(within(bruno).getByTestId('user-admin-login-as').textContent).toBe('Entrar como');
    expect(screen.getAllByTestId(/^user-admin-row-/)).toHaveLength(2);
  });

  it('shows them in a table that scrolls in its card, with headers that do not sort (the API takes no order)', async () => {
    api(me());
    renderRoutes(routes, '/erp/users');
    const table = await screen.findByTestId('user-admin-table');
    expect(scrollsInsideItsCard(table)).toBe(true);
    expect(tableHeaders(table)).toEqual([
      { text: 'ID', sort: null },
      { text: 'Criado em', sort: null },
      { text: 'Nome', sort: null },
      { text: 'E-mail', sort: null },
      { text: 'Ações', sort: null },
    ]);
    expect(table.querySelector('.sort-button')).toBeNull();
  });

  it("'login as' posts loginWith and reloads the app at /", async () => {
    const calls = api(me(), { 'POST /api/loginWith/7': () => ({ json: { ok: true } }) });
    renderRoutes(routes, '/erp/users');
    await screen.findByTestId('user-admin');
    fireEvent.click(within(screen.getByTestId('user-admin-row-7')).getByTestId('user-admin-login-as'));
    await waitFor(() => expect(loadPage).toHaveBeenCalledWith('/'));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual(['/api/loginWith/7']);
  });

  it("a failing 'login as' toasts the failure with the server message and stays", async () => {
    api(me(), {
      'POST /api/loginWith/7': () => ({
        status: 403,
        json: { error: 'admin_only', message: 'Administrators only' },
      }),
    });
    renderRoutes(routes, '/erp/users');
    await screen.findByTestId('user-admin');
    fireEvent.click(within(screen.getByTestId('user-admin-row-7')).getByTestId('user-admin-login-as'));
    await waitFor(() =>
      expect(
        getToasts().some(
          (toast) => toast.kind === 'error' && toast.message.includes('Somente administradores.'),
        ),
      ).toBe(true),
    );
    expect(loadPage).not.toHaveBeenCalled();
  });

  it('shows the server message when the list fails', async () => {
    api(me(), {
      'GET /api/users': () => ({
        status: 403,
        json: { error: 'admin_only', message: 'Administrators only' },
      }),
    });
    renderRoutes(routes, '/erp/users');
    expect((await screen.findByTestId('user-admin-error')).textContent).toBe('Somente administradores.');
  });
});

describe('impersonation banner', () => {
  it('is absent without impersonator_id', async () => {
    api(me({ impersonator_id: null }));
    renderRoutes(routes, '/');
    await screen.findByTestId('header-email');
    expect(screen.queryByTestId('impersonation-banner')).toBeNull();
  });

  it("names the account in use and goes back to the administrator's own with loginBack", async () => {
    const calls = api(
      me({ id: 7, name: 'Bruno', email: 'bruno@example.com', is_admin: false, impersonator_id: 1 }),
      {
        'POST /api/loginBack': () => ({ json: { ok: true } }),
      },
    );
    renderRoutes(routes, '/');
    const banner = await screen.findByTestId('impersonation-banner');
    expect(banner.textContent).toContain('Você está conectado como Bruno (bruno@example.com)');
    const back = within(banner).getByTestId('impersonation-back');
    expect(back.textContent).toBe('Voltar para minha conta');
    fireEvent.click(back);
    await waitFor(() => expect(loadPage).toHaveBeenCalledWith('/erp/users'));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual(['/api/loginBack']);
  });

  it('shows on every signed-in page and speaks English when chosen', async () => {
    api(me({ name: 'Bruno', email: 'bruno@example.com', impersonator_id: 1 }));
    setLanguage('en');
    try {
      renderRoutes(routes, '/erp/users');
      await screen.findByTestId('user-admin');
      expect(screen.getByTestId('impersonation-banner').textContent).toContain(
        'You are signed in as Bruno (bruno@example.com)',
      );
      expect(screen.getByTestId('impersonation-back').textContent).toBe('Back to my account');
    } finally {
      setLanguage('pt-BR');
      window.localStorage.clear();
    }
  });
});
