// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { paths } from '@/app/paths';
import type { PageSummary, ProjectDetail } from '@/lib/types';
import { projectFixture, userFixture } from '@/testing/fixtures';
import { mockApi, renderRoutes } from '@/testing/render-route';
import { editorPage, ProjectOverviewRoute } from '@/features/projects/routes/ProjectOverviewRoute';

const routes = [{ path: paths.project.pattern, element: <ProjectOverviewRoute /> }];

/** The overview of project 7 as `overrides` make it; resolves once it is on screen. */
async function overview(overrides: Partial<ProjectDetail>) {
  mockApi({
    'GET /api/projects/7': () => ({ json: projectFixture(7, overrides) }),
    'GET /api/user': () => ({ json: userFixture() }),
  });
  renderRoutes(routes, '/project/7');
  await screen.findByTestId('project-overview');
  return screen.queryByTestId('form-history-link');
}

describe('project overview: form history link', () => {
  it('links a published project without a custom domain to its form history', async () => {
    const link = await overview({ is_published: true, domain: null });
    expect(link?.getAttribute('href')).toBe('/project/7/form-history');
    expect(link?.textContent).toBe('Histórico de formulários');
  });

  it('links a published project with a custom domain', async () => {
    expect((await overview({ is_published: true, domain: 'loja.example.com' }))?.getAttribute('href')).toBe(
      '/project/7/form-history',
    );
  });

  it('keeps the link of an unpublished project that has a domain', async () => {
    expect(await overview({ is_published: false, domain: 'loja.example.com' })).not.toBeNull();
  });

  it('has no link for a project never published and without a domain', async () => {
    expect(await overview({ is_published: false, domain: null })).toBeNull();
  });
});

describe('project overview: analytics link', () => {
  it('links every project to its analytics, named "Estatísticas"', async () => {
    await overview({ is_published: false, domain: null });
    const link = screen.getByTestId('analytics-link');
    expect(link.getAttribute('href')).toBe('/project/7/analytics');
    expect(link.textContent).toBe('Estatísticas');
  });
});

const pageOf = (id: number, overrides: Partial<PageSummary> = {}): PageSummary => ({
  id,
  name: `Página ${id}`,
  slug: `p${id}`,
  table_id: null,
  is_home: false,
  updated_at: '2025-03-01T12:00:00Z',
  ...overrides,
});

describe('project overview: "Editar projeto" and the settings', () => {
  it('opens the home page in the editor, and names the settings "Configurações do projeto"', async () => {
    await overview({ pages: [pageOf(3, { table_id: 9 }), pageOf(4), pageOf(5, { is_home: true })] });
    const edit = screen.getByTestId('edit-project-link');
    expect(edit.textContent).toBe('Editar projeto');
    expect(edit.getAttribute('href')).toBe('/project/7/5');
    const settings = screen.getByTestId('settings-link');
    expect(settings.textContent).toBe('Configurações do projeto');
    expect(settings.getAttribute('href')).toBe('/project/7/edit');
  });

  it('has no "Editar projeto" without pages, the settings still reachable', async () => {
    await overview({ pages: [] });
    expect(screen.queryByTestId('edit-project-link')).toBeNull();
    expect(screen.getByTestId('settings-link').getAttribute('href')).toBe('/project/7/edit');
  });

  it('picks the home page, else the first static page, else any page', () => {
    expect(editorPage([pageOf(1, { table_id: 2 }), pageOf(2), pageOf(3, { is_home: true })])?.id).toBe(3);
    expect(editorPage([pageOf(1, { table_id: 2 }), pageOf(2)])?.id).toBe(2);
    expect(editorPage([pageOf(1, { table_id: 2 })])?.id).toBe(1);
    expect(editorPage([])).toBeUndefined();
  });
});
