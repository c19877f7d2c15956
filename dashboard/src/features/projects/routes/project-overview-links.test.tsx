// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { paths } from '@/app/paths';
import type { ProjectDetail } from '@/lib/types';
import { projectFixture, userFixture } from '@/testing/fixtures';
import { mockApi, renderRoutes } from '@/testing/render-route';
import { ProjectOverviewRoute } from '@/features/projects/routes/ProjectOverviewRoute';

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
