// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { User } from '@/lib/types';
import { mockApi, renderRoutes } from '@/testing/render-route';
import { Layout } from './Layout';
import { RequireAuth } from './RequireAuth';

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

// As in the app: the header of a signed-in screen, under RequireAuth (which asks for the user).
const routes = [
  {
    element: <Layout />,
    children: [{ element: <RequireAuth />, children: [{ path: '/', element: <p>home</p> }] }],
  },
];

describe('header', () => {
  it('links administrators to the block library', async () => {
    mockApi({ 'GET /api/user': () => ({ json: user(true) }) });
    renderRoutes(routes, '/');
    expect((await screen.findByTestId('header-erp-blocks')).getAttribute('href')).toBe('/erp/blocks');
  });

  it('links administrators to the templates screen', async () => {
    mockApi({ 'GET /api/user': () => ({ json: user(true) }) });
    renderRoutes(routes, '/');
    const link = await screen.findByTestId('header-erp-templates');
    expect(link.getAttribute('href')).toBe('/erp/templates');
    expect(link.textContent).toBe('Temas');
  });

  it("links administrators to the users screen with 'login as'", async () => {
    mockApi({ 'GET /api/user': () => ({ json: user(true) }) });
    renderRoutes(routes, '/');
    const link = await screen.findByTestId('header-erp-users');
    expect(link.getAttribute('href')).toBe('/erp/users');
    expect(link.textContent).toBe('Usuários (admin)');
    expect(screen.queryByTestId('header-users')).toBeNull();
  });

  it("links administrators to the edge nodes' ops screen", async () => {
    mockApi({ 'GET /api/user': () => ({ json: user(true) }) });
    renderRoutes(routes, '/');
    const link = await screen.findByTestId('header-erp-edges');
    expect(link.getAttribute('href')).toBe('/erp/edges');
    expect(link.textContent).toBe('Nós de borda');
  });

  it("links business admins to their business users and their business's blocks", async () => {
    mockApi({
      'GET /api/user': () => ({ json: { ...user(false), business_id: 10, is_business_admin: true } }),
    });
    renderRoutes(routes, '/');
    const link = await screen.findByTestId('header-users');
    expect(link.getAttribute('href')).toBe('/users');
    expect(link.textContent).toBe('Usuários');
    const blocks = screen.getByTestId('header-business-blocks');
    expect(blocks.getAttribute('href')).toBe('/business/blocks');
    expect(blocks.textContent).toBe('Blocos da empresa');
    // The platform's library stays the platform administrators'.
    expect(screen.queryByTestId('header-erp-blocks')).toBeNull();
    expect(screen.queryByTestId('header-erp-users')).toBeNull();
  });

  it('links every signed-in user to their own account from the e-mail', async () => {
    mockApi({ 'GET /api/user': () => ({ json: user(false) }) });
    renderRoutes(routes, '/');
    expect((await screen.findByTestId('header-email')).getAttribute('href')).toBe('/user');
  });

  it('shows no block library or templates link to other users', async () => {
    mockApi({ 'GET /api/user': () => ({ json: user(false) }) });
    renderRoutes(routes, '/');
    await screen.findByTestId('header-email');
    expect(screen.queryByTestId('header-erp-blocks')).toBeNull();
    expect(screen.queryByTestId('header-erp-templates')).toBeNull();
    expect(screen.queryByTestId('header-erp-users')).toBeNull();
    expect(screen.queryByTestId('header-erp-edges')).toBeNull();
    expect(screen.queryByTestId('header-users')).toBeNull();
  });
});

describe('document title', () => {
  it("names the screen in the tab's title", async () => {
    mockApi({ 'GET /api/user': () => ({ json: user(false) }) });
    renderRoutes(routes, '/');
    await screen.findByTestId('header-email');
    expect(document.title).toBe('Projetos · Vitrine');
  });
});
