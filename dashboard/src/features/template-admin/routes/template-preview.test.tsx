// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { paths } from '@/app/paths';
import { expectFieldError, expectFocused } from '@/testing/forms';
import { getToasts } from '@/testing/toasts';
import type { User } from '@/lib/types';
import { mockApi, renderRoutes, type Handler } from '@/testing/render-route';
import type { TemplateDetail } from '@/features/template-admin/types';
import { TemplatePreviewRoute } from './TemplatePreviewRoute';

// As in the app's router: the preview is outside RequireAdmin, open to every signed-in owner.
const routes = [
  { path: paths.template.pattern, element: <TemplatePreviewRoute /> },
  { path: paths.erpTemplates.pattern, element: <p data-testid="admin-stub">admin</p> },
  { path: paths.projectNew.pattern, element: <p data-testid="new-project-stub">new</p> },
  { path: paths.project.pattern, element: <p data-testid="project-stub">project</p> },
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

const detail = (overrides: Partial<TemplateDetail> = {}): TemplateDetail => ({
  id: 4,
  name: 'Aurora',
  description: 'Um tema para lojas',
  category: 'Loja',
  order: 1,
  is_published: '0',
  thumbnail: null,
  pages: [
    { name: 'Sobre', slug: '/sobre' },
    { name: 'Início', slug: '/' },
    { name: 'Contato & mapa', slug: '/contato e mapa' },
  ],
  ...overrides,
});

function api(handlers: Record<string, Handler> = {}, isAdmin = true) {
  return mockApi({
    'GET /api/user': () => ({ json: user(isAdmin) }),
    'GET /api/templates/4': () => ({ json: detail() }),
    ...handlers,
  });
}

const frame = () => screen.getByTestId<HTMLIFrameElement>('template-preview-frame');

async function open(url = '/template/4') {
  const router = renderRoutes(routes, url);
  await screen.findByTestId('template-preview');
  return router;
}

describe('theme preview', () => {
  it('opens for an owner who is not an administrator, read-only, with the way back to the gallery', async () => {
    api({ 'GET /api/templates/4': () => ({ json: detail({ is_published: '1' }) }) }, false);
    await open();
    expect(screen.queryByTestId('forbidden')).toBeNull();
    expect(screen.getByTestId('template-preview-name').textContent).toBe('Aurora');
    expect(frame().getAttribute('src')).toBe('/api/templates/4/preview?page=%2F');
    expect(screen.getByTestId('template-preview-read-only').textContent).toBe(
      'Prévia somente leitura: crie um projeto com este tema para editá-lo.',
    );
    const back = screen.getByTestId('template-preview-back');
    expect(back.getAttribute('href')).toBe('/project/new');
    expect(back.textContent).toBe('← Voltar para o novo projeto');
    expect(screen.queryByText('Não publicado')).toBeNull();
    expect(screen.getByTestId('template-use')).toBeTruthy();
  });

  it('shows an owner the not-found screen for a template the server does not show them', async () => {
    api(
      { 'GET /api/templates/4': () => ({ status: 404, json: { error: 'not_found', message: 'Not found' } }) },
      false,
    );
    renderRoutes(routes, '/template/4');
    await screen.findByTestId('not-found');
  });

  it('shows the name, category and description, and frames the home page sandboxed', async () => {
    api();
    await open();
    expect(screen.getByTestId('template-preview-name').textContent).toBe('Aurora');
    expect(screen.getByTestId('template-preview-category').textContent).toBe('Loja');
    expect(screen.getByTestId('template-preview-description').textContent).toBe('Um tema para lojas');
    expect(screen.getByText('Não publicado')).toBeTruthy();
    expect(frame().getAttribute('sandbox')).toBe('');
    expect(frame().getAttribute('src')).toBe('/api/templates/4/preview?page=%2F');
    expect(screen.getByTestId<HTMLSelectElement>('template-preview-page').value).toBe('/');
    await waitFor(() =>
      expect(screen.getByTestId('template-preview-back').getAttribute('href')).toBe('/erp/templates'),
    );
    expect(screen.queryByTestId('template-preview-read-only')).toBeNull();
  });

  it('switches pages, encoding the slug', async () => {
    api();
    await open();
    fireEvent.change(screen.getByTestId('template-preview-page'), { target: { value: '/sobre' } });
    expect(frame().getAttribute('src')).toBe('/api/templates/4/preview?page=%2Fsobre');
    fireEvent.change(screen.getByTestId('template-preview-page'), { target: { value: '/contato e mapa' } });
    expect(frame().getAttribute('src')).toBe('/api/templates/4/preview?page=%2Fcontato%20e%20mapa');
  });

  it('frames the default preview when the template has no pages', async () => {
    api({ 'GET /api/templates/4': () => ({ json: detail({ pages: [] }) }) });
    await open();
    expect(screen.queryByTestId('template-preview-page')).toBeNull();
    expect(frame().getAttribute('src')).toBe('/api/templates/4/preview');
  });

  it('toggles between the desktop (1280) and mobile (390) widths', async () => {
    api();
    await open();
    const desktop = screen.getByTestId('template-preview-desktop');
    const mobile = screen.getByTestId('template-preview-mobile');
    expect(desktop.getAttribute('aria-pressed')).toBe('true');
    expect(frame().getAttribute('width')).toBe('1280');
    fireEvent.click(mobile);
    expect(mobile.getAttribute('aria-pressed')).toBe('true');
    expect(desktop.getAttribute('aria-pressed')).toBe('false');
    expect(frame().getAttribute('width')).toBe('390');
    expect(screen.getByTestId('template-preview-viewport').style.width).toBe('390px');
    fireEvent.click(desktop);
    expect(frame().getAttribute('width')).toBe('1280');
  });

  it('creates a project from the template and opens it', async () => {
    const calls = api({
      'POST /api/templates/use/4': () => ({ status: 201, json: { id: 77, name: 'Minha loja' } }),
    });
    const router = await open();
    fireEvent.click(screen.getByTestId('template-use'));
    const modal = await screen.findByTestId('use-template');
    fireEvent.change(within(modal).getByTestId('use-template-name'), { target: { value: ' Minha loja ' } });
    fireEvent.click(within(modal).getByTestId('use-template-submit'));
    await screen.findByTestId('project-stub');
    expect(router.state.location.pathname).toBe('/project/77');
    expect(calls.find((c) => c.url === '/api/templates/use/4')?.body).toEqual({ name: 'Minha loja' });
  });

  it('asks for a project name before calling the server', async () => {
    const calls = api();
    await open();
    fireEvent.click(screen.getByTestId('template-use'));
    const modal = await screen.findByTestId('use-template');
    fireEvent.change(within(modal).getByTestId('use-template-name'), { target: { value: '   ' } });
    fireEvent.click(within(modal).getByTestId('use-template-submit'));
    await expectFieldError('use-template-name', 'O nome do projeto é obrigatório');
    await expectFocused('use-template-name');
    fireEvent.change(within(modal).getByTestId('use-template-name'), { target: { value: 'x'.repeat(201) } });
    fireEvent.click(within(modal).getByTestId('use-template-submit'));
    await expectFieldError('use-template-name', 'No máximo 200 caracteres');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('shows a refusal of the server that names the name at the name field', async () => {
    api({
      'POST /api/templates/use/4': () => ({
        status: 422,
        json: { error: 'project_name_required', message: 'Project name is required', field: 'name' },
      }),
    });
    await open();
    fireEvent.click(screen.getByTestId('template-use'));
    const modal = await screen.findByTestId('use-template');
    fireEvent.change(within(modal).getByTestId('use-template-name'), { target: { value: 'x' } });
    fireEvent.click(within(modal).getByTestId('use-template-submit'));
    await expectFieldError('use-template-name', 'O nome do projeto é obrigatório');
    await expectFocused('use-template-name');
    expect(within(modal).queryByTestId('use-template-error')).toBeNull();
  });

  it('keeps the dialog open with the server message when the project cannot be created', async () => {
    api({
      'POST /api/templates/use/4': () => ({
        status: 422,
        json: { error: 'project_name_required', message: 'Project name is required' },
      }),
    });
    await open();
    fireEvent.click(screen.getByTestId('template-use'));
    const modal = await screen.findByTestId('use-template');
    fireEvent.change(within(modal).getByTestId('use-template-name'), { target: { value: 'x' } });
    fireEvent.click(within(modal).getByTestId('use-template-submit'));
    expect((await screen.findByTestId('use-template-error')).textContent).toBe(
      'O nome do projeto é obrigatório',
    );
    await waitFor(() => expect(getToasts().some((toast) => toast.kind === 'error')).toBe(true));
  });

  it('shows the not-found screen for a missing template or a bad id', async () => {
    api({
      'GET /api/templates/4': () => ({ status: 404, json: { error: 'not_found', message: 'Not found' } }),
    });
    renderRoutes(routes, '/template/4');
    await screen.findByTestId('not-found');
  });

  it('shows the not-found screen for an id that is not a number, without calling the server', async () => {
    const calls = api();
    renderRoutes(routes, '/template/abc');
    await screen.findByTestId('not-found');
    expect(calls.some((c) => c.url.startsWith('/api/templates'))).toBe(false);
  });
});
