// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { ReactElement } from 'react';
import type { RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/lib/i18n';
import { ApiError } from '@/lib/api-client';
import { rememberSignedIn } from '@/lib/auth/get-user';
import type { User } from '@/lib/types';
import { mockApi, renderRoutes } from '@/testing/render-route';
import { Layout } from './Layout';
import { paths } from './paths';
import { RouteError } from './RouteError';
import { routes, withRouteDefaults } from './router';

function Boom({ error }: { error: unknown }): never {
  throw error;
}

const user: User = {
  id: 1,
  name: 'Ana',
  email: 'ana@example.com',
  language: 'pt-BR',
  currency: 'BRL',
  business_id: null,
  is_admin: false,
  is_business_admin: false,
  permissions: {},
  created_at: '2025-01-01T00:00:00Z',
};

function allRoutes(list: RouteObject[]): RouteObject[] {
  return list.flatMap((route) => [route, ...allRoutes(route.children ?? [])]);
}

afterEach(() => {
  void i18n.changeLanguage('pt-BR');
});

describe('route errors', () => {
  it('gives every route of the app an error boundary and a hydration fallback', () => {
    const every = allRoutes(
      withRouteDefaults(routes, { errorElement: <RouteError />, hydrateFallbackElement: <p /> }),
    );
    expect(every.length).toBeGreaterThan(30);
    for (const route of every) {
      expect(route.errorElement, route.path ?? '(layout)').toBeTruthy();
      expect(route.hydrateFallbackElement, route.path ?? '(layout)').toBeTruthy();
    }
    // The client panel's errors lead back to the panel, not to the owner's project list.
    const client = every.filter((route) => route.path?.startsWith('/admin'));
    expect(client).toHaveLength(4);
    for (const route of client) {
      expect((route.errorElement as ReactElement<{ home?: string }>).props.home).toBe('client');
    }
  });

  it('shows a screen that throws as a translated message inside the layout, with a way home and a retry', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    rememberSignedIn(true);
    mockApi({ 'GET /api/user': () => ({ json: user }) });
    renderRoutes(
      withRouteDefaults(
        [{ element: <Layout />, children: [{ path: '/x', element: <Boom error={new Error('kaputt')} /> }] }],
        { errorElement: <RouteError /> },
      ),
      '/x',
    );
    const alert = await screen.findByTestId('route-error');
    expect(alert.getAttribute('role')).toBe('alert');
    expect(alert.textContent).toContain('Algo deu errado nesta tela');
    expect(alert.textContent).not.toContain('kaputt');
    expect(screen.getByTestId('route-error-home').getAttribute('href')).toBe(paths.home.build());
    // The header stays: the error replaced only the screen.
    expect(await screen.findByTestId('header-email')).toBeTruthy();
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    fireEvent.click(screen.getByRole('button', { name: 'Tentar de novo' }));
    expect(reload).toHaveBeenCalledOnce();
  });

  it('says "not found" for a 404, in English too', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await i18n.changeLanguage('en');
    mockApi({});
    renderRoutes(
      withRouteDefaults(
        [{ path: '/x', element: <Boom error={new ApiError(404, 'not_found', 'Not Found')} /> }],
        {
          errorElement: <RouteError />,
        },
      ),
      '/x',
    );
    expect((await screen.findByTestId('route-error')).textContent).toContain('Page not found');
    expect(screen.getByTestId('route-error-home').textContent).toBe('Back to projects');
  });

  it("sends the client panel's errors back to the panel's start", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockApi({});
    renderRoutes(
      [
        {
          path: '/admin',
          element: <Boom error={new Error('x')} />,
          errorElement: <RouteError home="client" />,
        },
      ],
      '/admin',
    );
    expect((await screen.findByTestId('route-error-home')).getAttribute('href')).toBe('/admin');
    expect(screen.getByTestId('route-error-home').textContent).toBe('Voltar às coleções');
  });

  it('shows the page loader while a lazy screen loads, and no HydrateFallback warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    let finish: (value: { Component: () => React.JSX.Element }) => void = () => undefined;
    const loading = new Promise<{ Component: () => React.JSX.Element }>((resolve) => (finish = resolve));
    mockApi({});
    renderRoutes(
      withRouteDefaults([{ path: '/lazy', lazy: () => loading }], {
        errorElement: <RouteError />,
        hydrateFallbackElement: <p data-testid="fallback">…</p>,
      }),
      '/lazy',
    );
    expect(await screen.findByTestId('fallback')).toBeTruthy();
    finish({ Component: () => <p data-testid="lazy-screen">ok</p> });
    expect(await screen.findByTestId('lazy-screen')).toBeTruthy();
    expect(warn.mock.calls.flat().join(' ')).not.toContain('HydrateFallback');
  });
});

describe('anonymous screens and GET /api/user', () => {
  const anonymous = [{ element: <Layout />, children: [{ path: '/login', element: <p>login</p> }] }];

  it('does not ask for the user on a browser that has no session, so no 401 reaches the console', async () => {
    const calls = mockApi({ 'GET /api/config': () => ({ json: {} }) });
    renderRoutes(anonymous, '/login');
    await screen.findByText('login');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls.filter((call) => call.url.startsWith('/api/user'))).toEqual([]);
    expect(screen.queryByTestId('header-email')).toBeNull();
  });

  it('asks on a browser that was signed in, and forgets the session when the answer is 401', async () => {
    rememberSignedIn(true);
    const calls = mockApi({ 'GET /api/user': () => ({ status: 401, json: { error: 'unauthorized' } }) });
    renderRoutes(anonymous, '/login');
    await waitFor(() => expect(calls.some((call) => call.url === '/api/user')).toBe(true));
    await waitFor(() => expect(window.localStorage.getItem('vitrine.signedIn')).toBeNull());
  });

  it('shows the signed-in header when the browser has a session', async () => {
    rememberSignedIn(true);
    mockApi({ 'GET /api/user': () => ({ json: user }) });
    renderRoutes(anonymous, '/login');
    expect((await screen.findByTestId('header-email')).textContent).toBe('ana@example.com');
  });
});
