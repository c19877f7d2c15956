// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { projectFixture } from '@/testing/fixtures';
import { mockApi, renderRoutes } from '@/testing/render-route';
import type { Project } from '@/lib/types';
import { ProjectItem } from './ProjectCard';

function renderCard(thumbnail: string | null) {
  mockApi({});
  const project = projectFixture(7, { thumbnail, name: 'Loja da Ana' });
  renderRoutes([{ path: '/', element: <ProjectItem project={project} view="grid" /> }], '/');
}

describe('project card', () => {
  it('shows the picture of the published home page the server took after the last publish', () => {
    renderCard('/api/projects/7/deploys/12/screenshot');
    const picture = screen.getByTestId<HTMLImageElement>('project-screenshot');
    expect(picture.getAttribute('src')).toBe('/api/projects/7/deploys/12/screenshot');
    expect(screen.queryByTestId('project-letter')).toBeNull();
  });

  it('keeps the letter tile without a picture', () => {
    renderCard(null);
    expect(screen.getByTestId('project-letter').textContent).toBe('L');
    expect(screen.queryByTestId('project-screenshot')).toBeNull();
  });

  it('falls back to the letter when the picture does not load', () => {
    renderCard('/api/projects/7/deploys/12/screenshot');
    fireEvent.error(screen.getByTestId('project-screenshot'));
    expect(screen.getByTestId('project-letter').textContent).toBe('L');
  });

  const renderItem = (overrides: Partial<Project>, view: 'grid' | 'list' = 'grid') => {
    mockApi({});
    const project = projectFixture(7, overrides);
    renderRoutes([{ path: '/', element: <ProjectItem project={project} view={view} /> }], '/');
  };
  const pending: Partial<Project> = {
    domain: 'www.x.com.br',
    meta: {},
    domain_check: {
      domain: 'www.x.com.br',
      checks: 2,
      last_result: null,
      checked_at: '2025-03-02T10:00:00Z',
      next_check_at: '2025-03-02T10:04:00Z',
      created_at: '2025-03-02T09:58:00Z',
    },
  };

  it.each(['grid', 'list'] as const)(
    'says (%s) that a pending domain waits for DNS, where the site is live meanwhile, and the next check',
    (view) => {
      renderItem(pending, view);
      const address = screen.getByTestId('project-address');
      expect(address.getAttribute('data-pending')).toBe('true');
      expect(within(address).getByTestId('project-domain-waiting').textContent).toBe(
        'www.x.com.br aguarda o DNS',
      );
      expect(within(address).getByTestId('project-live-at').textContent).toBe(
        'No ar em loja-da-ana.localhost:8080',
      );
      expect(within(address).getByTestId('project-next-check').textContent).toMatch(
        /^Próxima verificação em \d{2}\/\d{2}\/2025 \d{2}:\d{2}$/,
      );
    },
  );

  it('shows a verified domain as the address, and the slug without a domain', () => {
    renderItem({ domain: 'loja.example.com', meta: { verified: true, verifiedDomain: 'loja.example.com' } });
    expect(screen.getByTestId('project-address').textContent).toBe('loja.example.com');
    expect(screen.queryByTestId('project-domain-waiting')).toBeNull();
  });

  it('shows the preview slug without a custom domain', () => {
    renderItem({ domain: null, slug: 'loja-da-ana' });
    expect(screen.getByTestId('project-address').textContent).toBe('loja-da-ana');
  });
});
