// @vitest-environment jsdom
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { projectFixture } from '@/testing/fixtures';
import { mockApi, renderRoutes } from '@/testing/render-route';
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
});
