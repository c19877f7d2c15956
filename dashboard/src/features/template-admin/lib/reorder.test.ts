import { describe, expect, it } from 'vitest';
import type { TemplateView } from '@/features/template-admin/types';
import { reorderChanges, sortTemplates } from './reorder';

const template = (id: number, name: string, order: number): TemplateView => ({
  id,
  name,
  description: '',
  category: 'Loja',
  order,
  is_published: '1',
  thumbnail: null,
});

describe('sortTemplates', () => {
  it('sorts by order, then name', () => {
    const sorted = sortTemplates([template(1, 'B', 2), template(2, 'Z', 1), template(3, 'A', 2)]);
    expect(sorted.map((t) => t.id)).toEqual([2, 3, 1]);
  });
});

describe('reorderChanges', () => {
  const list = [template(1, 'A', 1), template(2, 'B', 2), template(3, 'C', 3), template(4, 'D', 4)];

  it('renumbers only the rows that moved, down the list', () => {
    expect(reorderChanges(list, 1, 3)).toEqual([
      { id: 2, order: 1 },
      { id: 3, order: 2 },
      { id: 1, order: 3 },
    ]);
  });

  it('renumbers only the rows that moved, up the list', () => {
    expect(reorderChanges(list, 4, 3)).toEqual([
      { id: 4, order: 3 },
      { id: 3, order: 4 },
    ]);
  });

  it('does nothing for a drop in place or an unknown row', () => {
    expect(reorderChanges(list, 2, 2)).toEqual([]);
    expect(reorderChanges(list, 9, 2)).toEqual([]);
  });

  it('spreads out ties, so the new order is stored', () => {
    const tied = [template(1, 'A', 0), template(2, 'B', 0), template(3, 'C', 0)];
    expect(reorderChanges(tied, 3, 1)).toEqual([
      { id: 3, order: 1 },
      { id: 1, order: 2 },
      { id: 2, order: 3 },
    ]);
  });
});
