import { describe, expect, it } from 'vitest';
import { arrangeProjects, isProjectOrder, isProjectView } from './project-list';

const projects = [
  {
    id: 1,
    name: 'Padaria',
    slug: 'padaria',
    domain: null,
    created_at: '2026-01-01T10:00:00Z',
    updated_at: '2026-03-01T10:00:00Z',
  },
  {
    id: 2,
    name: 'açougue Central',
    slug: 'acougue',
    domain: 'acougue.com.br',
    created_at: '2026-02-01T10:00:00Z',
    updated_at: '2026-02-15T10:00:00Z',
  },
  {
    id: 3,
    name: 'Barbearia',
    slug: 'barba',
    domain: null,
    created_at: '2026-01-15T10:00:00Z',
    updated_at: '2026-04-01T10:00:00Z',
  },
];

const ids = (list: { id: number }[]) => list.map((project) => project.id);

describe('arrangeProjects', () => {
  it('orders by last update, newest first, by default order', () => {
    expect(ids(arrangeProjects(projects, '-updated_at'))).toEqual([3, 1, 2]);
  });

  it('orders by creation, newest first', () => {
    expect(ids(arrangeProjects(projects, '-created_at'))).toEqual([2, 3, 1]);
  });

  it('orders by name, ignoring case and accents', () => {
    expect(ids(arrangeProjects(projects, 'name'))).toEqual([2, 3, 1]);
  });

  it('searches name, slug and domain without case or accents', () => {
    expect(ids(arrangeProjects(projects, 'name', 'ACOUGUE'))).toEqual([2]);
    expect(ids(arrangeProjects(projects, 'name', 'com.br'))).toEqual([2]);
    expect(ids(arrangeProjects(projects, 'name', 'barba'))).toEqual([3]);
    expect(ids(arrangeProjects(projects, 'name', 'nothing'))).toEqual([]);
  });

  it('does not change its input', () => {
    const copy = [...projects];
    arrangeProjects(projects, 'name');
    expect(projects).toEqual(copy);
  });

  it('recognises stored order and view values', () => {
    expect(isProjectOrder('-created_at')).toBe(true);
    expect(isProjectOrder('created_at')).toBe(false);
    expect(isProjectView('list')).toBe(true);
    expect(isProjectView(null)).toBe(false);
  });
});
