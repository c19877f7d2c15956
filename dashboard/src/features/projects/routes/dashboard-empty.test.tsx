// @vitest-environment jsdom
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { paths } from '@/app/paths';
import { projectFixture } from '@/testing/fixtures';
import { mockApi, renderRoutes } from '@/testing/render-route';
import { DashboardRoute } from '@/features/projects/routes/DashboardRoute';

const routes = [
  { path: paths.home.pattern, element: <DashboardRoute /> },
  { path: paths.projectNew.pattern, element: <p data-testid="new-project-screen">novo</p> },
];

describe('project list: the first step', () => {
  it('guides an owner without projects to the template gallery', async () => {
    mockApi({ 'GET /api/projects': () => ({ json: [] }) });
    renderRoutes(routes, '/');
    const empty = await screen.findByTestId('projects-empty');
    expect(empty.querySelector('h2')?.textContent).toBe('Vamos criar o seu primeiro site');
    expect(
      screen.getAllByTestId('projects-empty-step').map((step) => step.querySelector('strong')?.textContent),
    ).toEqual(['Escolha um modelo', 'Dê o nome do seu negócio', 'Publique']);
    const cta = screen.getByTestId('projects-empty-cta');
    expect(cta.textContent).toBe('Escolher um modelo');
    expect(cta.getAttribute('href')).toBe('/project/new');
    // No sorting or search over nothing.
    expect(screen.queryByTestId('project-order')).toBeNull();
    fireEvent.click(cta);
    await screen.findByTestId('new-project-screen');
  });

  it('lists the projects, and no first step, once there is one', async () => {
    mockApi({ 'GET /api/projects': () => ({ json: [projectFixture(7)] }) });
    renderRoutes(routes, '/');
    await screen.findByTestId('project-list');
    expect(screen.queryByTestId('projects-empty')).toBeNull();
  });
});
