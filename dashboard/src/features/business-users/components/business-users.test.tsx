// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { scrollsInsideItsCard, tableHeaders } from '@/testing/tables';
import { paths } from '@/app/paths';
import { RequireBusinessAdmin } from '@/app/RequireBusinessAdmin';
import { clearToasts, getToasts } from '@/testing/toasts';
import type { User } from '@/lib/types';
import { projectFixture } from '@/testing/fixtures';
import { mockApi, renderRoutes, type ApiCall, type Handler } from '@/testing/render-route';
import {
  BusinessUserEditRoute,
  BusinessUserNewRoute,
} from '@/features/business-users/routes/BusinessUserFormRoute';
import { BusinessUsersRoute } from '@/features/business-users/routes/BusinessUsersRoute';
import type { AccessLevel, BusinessUser, BusinessUserPayload } from '@/features/business-users/types';

const routes = [
  {
    element: <RequireBusinessAdmin />,
    children: [
      { path: paths.users.pattern, element: <BusinessUsersRoute /> },
      { path: paths.userNew.pattern, element: <BusinessUserNewRoute /> },
      { path: paths.userEdit.pattern, element: <BusinessUserEditRoute /> },
    ],
  },
];

const me = (isBusinessAdmin: boolean): User => ({
  id: 1,
  name: 'Ana',
  email: 'ana@example.com',
  language: 'pt-BR',
  currency: 'BRL',
  business_id: 10,
  is_admin: false,
  is_business_admin: isBusinessAdmin,
  permissions: {},
  created_at: '2025-01-01T00:00:00Z',
});

const member = (id: number, name: string, overrides: Partial<BusinessUser> = {}): BusinessUser => ({
  id,
  name,
  email: `${name.toLowerCase()}@example.com`,
  is_business_admin: false,
  permissions: { all_projects: true },
  created_at: '2025-02-01T00:00:00Z',
  ...overrides,
});

const members = (): BusinessUser[] => [
  member(1, 'Ana', { is_business_admin: true, permissions: {} }),
  member(2, 'Bruno', { permissions: { projects_whitelist: [11] } }),
  member(3, 'Carla', { permissions: { projects_blacklist: [12] } }),
];

const projects = () => [
  projectFixture(11, { name: 'Loja' }),
  projectFixture(12, { name: 'Blog' }),
  projectFixture(13, { name: 'Portfólio' }),
];

function api(handlers: Record<string, Handler> = {}, isBusinessAdmin = true) {
  return mockApi({
    'GET /api/user': () => ({ json: me(isBusinessAdmin) }),
    'GET /api/business/users': () => ({ json: members() }),
    'GET /api/projects': () => ({ json: projects() }),
    ...handlers,
  });
}

const toasts = () => getToasts().map((toast) => `${toast.kind}:${toast.message}`);

// Toasts outlive a test (they leave on a timer): each test starts with none, so it sees only its own.
beforeEach(() => clearToasts());
const posts = (calls: ApiCall[], url: string) => calls.filter((c) => c.method === 'POST' && c.url === url);
const input = (testId: string) => screen.getByTestId<HTMLInputElement>(testId);
const type = (testId: string, value: string) =>
  fireEvent.change(screen.getByTestId(testId), { target: { value } });

describe('business admin guard', () => {
  it('shows a forbidden notice to a user who is not a business admin, without loading the list', async () => {
    const calls = api({}, false);
    renderRoutes(routes, '/users');
    const notice = await screen.findByTestId('forbidden');
    expect(notice.textContent).toContain('Esta tela é só para administradores da empresa.');
    expect(screen.queryByTestId('business-users')).toBeNull();
    expect(calls.some((c) => c.url === '/api/business/users')).toBe(false);
  });

  it('keeps the form screens from other users too', async () => {
    api({}, false);
    renderRoutes(routes, '/users/new');
    await screen.findByTestId('forbidden');
    expect(screen.queryByTestId('business-user-form')).toBeNull();
  });
});

describe('business users list', () => {
  it('lists name, email, an [Admin] tag for business admins and an Edit user link', async () => {
    api();
    renderRoutes(routes, '/users');
    await screen.findByTestId('business-users');
    const rows = screen.getAllByTestId(/^business-user-row-/);
    expect(rows.map((row) => row.dataset.testid)).toEqual([
      'business-user-row-1',
      'business-user-row-2',
      'business-user-row-3',
    ]);

    const ana = screen.getByTestId('business-user-row-1');
    expect(within(ana).getByTestId('business-user-name').textContent).toBe('Ana');
    expect(within(ana).getByTestId('business-user-email').textContent).toBe('ana@example.com');
    expect(within(ana).getByTestId('business-user-admin').textContent).toBe('Admin');
    expect(within(ana).getByTestId('business-user-edit').getAttribute('href')).toBe('/users/1');
    expect(within(ana).getByTestId('business-user-edit').textContent).toBe('Editar usuário');

    const bruno = screen.getByTestId('business-user-row-2');
    expect(within(bruno).queryByTestId('business-user-admin')).toBeNull();
    expect(within(bruno).getByTestId('business-user-edit').getAttribute('href')).toBe('/users/2');
  });

  it('shows them in a table that scrolls in its card, with headers that do not sort (the API takes no order)', async () => {
    api();
    renderRoutes(routes, '/users');
    const table = await screen.findByTestId('business-users-table');
    expect(scrollsInsideItsCard(table)).toBe(true);
    expect(tableHeaders(table)).toEqual([
      { text: 'Nome', sort: null },
      { text: 'E-mail', sort: null },
      { text: 'Ações', sort: null },
    ]);
    expect(table.querySelector('.sort-button')).toBeNull();
    expect(table.querySelector('input[type="checkbox"]')).toBeNull();
  });

  it('leads to /users/new from New user', async () => {
    api();
    const router = renderRoutes(routes, '/users');
    const button = await screen.findByTestId('business-user-new');
    expect(button.textContent).toBe('Novo usuário');
    fireEvent.click(button);
    await screen.findByTestId('business-user-form');
    expect(router.state.location.pathname).toBe('/users/new');
  });

  it('shows an empty state when the business has no other user', async () => {
    api({ 'GET /api/business/users': () => ({ json: [] }) });
    renderRoutes(routes, '/users');
    expect(await screen.findByTestId('business-users-empty')).toBeTruthy();
  });

  it('shows the server message when the list fails', async () => {
    api({
      'GET /api/business/users': () => ({
        status: 403,
        json: { error: 'business_admin_only', message: 'Business administrators only' },
      }),
    });
    renderRoutes(routes, '/users');
    expect((await screen.findByTestId('business-users-error')).textContent).toBe(
      'Somente administradores da empresa.',
    );
  });
});

describe('new business user', () => {
  async function openNew(handlers: Record<string, Handler> = {}) {
    const calls = api({
      'POST /api/business/users': ({ body }) => ({
        status: 201,
        json: { id: 9, ...(body as BusinessUserPayload) },
      }),
      ...handlers,
    });
    const router = renderRoutes(routes, '/users/new');
    await screen.findByTestId('business-user-form');
    return { calls, router };
  }

  it('checks name, email and password before sending', async () => {
    const { calls } = await openNew();
    expect(screen.queryByTestId('user-password-hint')).toBeNull();
    fireEvent.click(screen.getByTestId('user-form-save'));
    const form = screen.getByTestId('business-user-form');
    expect(await within(form).findByText('O nome é obrigatório')).toBeTruthy();
    expect(within(form).getByText('O e-mail é obrigatório')).toBeTruthy();
    expect(within(form).getByText('A senha é obrigatória')).toBeTruthy();
    // The first invalid field takes the focus.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('user-name')));

    type('user-name', 'Davi');
    type('user-email', 'davi@example.com');
    fireEvent.click(screen.getByTestId('user-form-save'));
    await waitFor(() => expect(within(form).queryByText('O nome é obrigatório')).toBeNull());
    expect(within(form).getByText('A senha é obrigatória')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('user-password')));
    expect(posts(calls, '/api/business/users')).toHaveLength(0);
  });

  const levels: {
    level: AccessLevel;
    check: number[];
    body: Pick<BusinessUserPayload, 'is_business_admin' | 'permissions'>;
  }[] = [
    { level: 'admin', check: [], body: { is_business_admin: true, permissions: {} } },
    {
      level: 'all_projects',
      check: [],
      body: { is_business_admin: false, permissions: { all_projects: true } },
    },
    {
      level: 'projects_whitelist',
      check: [11, 13],
      body: { is_business_admin: false, permissions: { projects_whitelist: [11, 13] } },
    },
    {
      level: 'projects_blacklist',
      check: [12],
      body: { is_business_admin: false, permissions: { projects_blacklist: [12] } },
    },
  ];

  it.each(levels)(
    'creates a user with access level $level and sends the mapped body',
    async ({ level, check, body }) => {
      const { calls, router } = await openNew();
      type('user-name', ' Davi ');
      type('user-email', 'davi@example.com');
      type('user-password', 'segredo1');
      type('user-level', level);
      if (check.length > 0) {
        const list = await screen.findByTestId('user-projects');
        await within(list).findByTestId('user-project-11');
        expect(within(list).getByText('Portfólio')).toBeTruthy();
        check.forEach((id) => fireEvent.click(within(list).getByTestId(`user-project-${id}`)));
      } else {
        expect(screen.queryByTestId('user-projects')).toBeNull();
      }
      fireEvent.click(screen.getByTestId('user-form-save'));
      await waitFor(() => expect(router.state.location.pathname).toBe('/users'));
      expect(posts(calls, '/api/business/users')[0]?.body).toEqual({
        name: 'Davi',
        email: 'davi@example.com',
        password: 'segredo1',
        ...body,
      });
      expect(toasts()).toContain('success:Usuário atualizado com sucesso');
    },
  );

  it('toasts the server message of a 409 and stays on the form, marking the field', async () => {
    const { router } = await openNew({
      'POST /api/business/users': () => ({
        status: 409,
        json: { error: 'email_taken', message: 'email already in use', field: 'email' },
      }),
    });
    type('user-name', 'Davi');
    type('user-email', 'ana@example.com');
    type('user-password', 'segredo1');
    fireEvent.click(screen.getByTestId('user-form-save'));
    await waitFor(() => expect(toasts()).toContain('error:e-mail já cadastrado'));
    expect(router.state.location.pathname).toBe('/users/new');
    expect(within(screen.getByTestId('business-user-form')).getByRole('alert').textContent).toBe(
      'e-mail já cadastrado',
    );
  });
});

describe('edit business user', () => {
  function openEdit(user: BusinessUser, handlers: Record<string, Handler> = {}) {
    const calls = api({
      [`GET /api/business/users/${user.id}`]: () => ({ json: user }),
      [`POST /api/business/users/${user.id}`]: ({ body }) => ({
        json: { ...user, ...(body as BusinessUserPayload) },
      }),
      ...handlers,
    });
    const router = renderRoutes(routes, `/users/${user.id}`);
    return { calls, router };
  }

  it('loads the user, maps a whitelist back to the access level and checklist, and omits an empty password', async () => {
    const { calls, router } = openEdit(members()[1]!);
    await screen.findByTestId('business-user-form');
    expect(input('user-name').value).toBe('Bruno');
    expect(input('user-email').value).toBe('bruno@example.com');
    expect(input('user-password').value).toBe('');
    expect(screen.getByTestId('user-password-hint').textContent).toBe(
      'Deixe em branco para manter a mesma senha',
    );
    expect(screen.getByTestId<HTMLSelectElement>('user-level').value).toBe('projects_whitelist');
    await screen.findByTestId('user-project-11');
    expect(input('user-project-11').checked).toBe(true);
    expect(input('user-project-12').checked).toBe(false);

    fireEvent.click(screen.getByTestId('user-project-12'));
    type('user-name', 'Bruno Souza');
    fireEvent.click(screen.getByTestId('user-form-save'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/users'));
    expect(posts(calls, '/api/business/users/2')[0]?.body).toEqual({
      name: 'Bruno Souza',
      email: 'bruno@example.com',
      is_business_admin: false,
      permissions: { projects_whitelist: [11, 12] },
    });
    expect(toasts()).toContain('success:Usuário atualizado com sucesso');
    await screen.findByTestId('business-users');
  });

  it('maps a blacklist back with its checked projects', async () => {
    openEdit(members()[2]!);
    await screen.findByTestId('business-user-form');
    expect(screen.getByTestId<HTMLSelectElement>('user-level').value).toBe('projects_blacklist');
    await screen.findByTestId('user-project-12');
    expect(input('user-project-12').checked).toBe(true);
    expect(input('user-project-11').checked).toBe(false);
  });

  it('maps a business admin back to admin, without a checklist, and sends a typed password', async () => {
    const { calls } = openEdit(members()[0]!);
    await screen.findByTestId('business-user-form');
    expect(screen.getByTestId<HTMLSelectElement>('user-level').value).toBe('admin');
    expect(screen.queryByTestId('user-projects')).toBeNull();
    type('user-password', 'nova-senha');
    fireEvent.click(screen.getByTestId('user-form-save'));
    await waitFor(() => expect(posts(calls, '/api/business/users/1')).toHaveLength(1));
    expect(posts(calls, '/api/business/users/1')[0]?.body).toEqual({
      name: 'Ana',
      email: 'ana@example.com',
      password: 'nova-senha',
      is_business_admin: true,
      permissions: {},
    });
  });

  it('still checks name and email when editing', async () => {
    const { calls } = openEdit(members()[1]!);
    await screen.findByTestId('business-user-form');
    type('user-email', '');
    fireEvent.click(screen.getByTestId('user-form-save'));
    expect(await screen.findByText('O e-mail é obrigatório')).toBeTruthy();
    expect(screen.queryByText('A senha é obrigatória')).toBeNull();
    expect(posts(calls, '/api/business/users/2')).toHaveLength(0);
  });

  it('toasts a 422 message from the server', async () => {
    openEdit(members()[1]!, {
      'POST /api/business/users/2': () => ({
        status: 422,
        json: {
          error: 'password_too_short',
          message: 'Password must be at least 8 characters',
          field: 'password',
          params: { min: 8 },
        },
      }),
    });
    await screen.findByTestId('business-user-form');
    type('user-password', '1');
    fireEvent.click(screen.getByTestId('user-form-save'));
    await waitFor(() => expect(toasts()).toContain('error:A senha deve ter pelo menos 8 caracteres'));
  });

  it('toasts a failing load and returns to /users', async () => {
    const { router } = openEdit(member(99, 'Zé'), {
      'GET /api/business/users/99': () => ({
        status: 404,
        json: { error: 'not_found', message: 'Not found' },
      }),
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/users'));
    expect(toasts()).toContain('error:Não encontrado');
    await screen.findByTestId('business-users');
  });
});
