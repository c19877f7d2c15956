/** Dashboard list: client-side search and ordering of the caller's projects. */
import type { Project } from '@/lib/types';

export const projectOrders = ['-updated_at', '-created_at', 'name'] as const;
export type ProjectOrder = (typeof projectOrders)[number];
export const defaultProjectOrder: ProjectOrder = '-updated_at';

export const projectViews = ['grid', 'list'] as const;
export type ProjectView = (typeof projectViews)[number];

/** Search box and grid/list switch appear only above this many projects. */
export const listControlsThreshold = 10;

export function isProjectOrder(value: string | null): value is ProjectOrder {
  return value !== null && (projectOrders as readonly string[]).includes(value);
}

export function isProjectView(value: string | null): value is ProjectView {
  return value !== null && (projectViews as readonly string[]).includes(value);
}

function fold(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

function time(iso: string): number {
  const value = Date.parse(iso);
  return Number.isNaN(value) ? 0 : value;
}

type ProjectListItem = Pick<Project, 'id' | 'name' | 'slug' | 'domain' | 'created_at' | 'updated_at'>;

/**
 * Filters by a case- and accent-insensitive search on name, slug and domain, then orders:
 * newest first for the date orders, alphabetical for name; ties fall back to id.
 */
export function arrangeProjects<T extends ProjectListItem>(
  projects: readonly T[],
  order: ProjectOrder,
  search = '',
): T[] {
  const needle = fold(search.trim());
  const matching = needle
    ? projects.filter((project) =>
        [project.name, project.slug, project.domain ?? ''].some((value) => fold(value).includes(needle)),
      )
    : [...projects];
  const compare = (a: T, b: T): number => {
    switch (order) {
      case '-updated_at':
        return time(b.updated_at) - time(a.updated_at);
      case '-created_at':
        return time(b.created_at) - time(a.created_at);
      case 'name':
        return a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });
    }
  };
  return matching.sort((a, b) => compare(a, b) || a.id - b.id);
}
