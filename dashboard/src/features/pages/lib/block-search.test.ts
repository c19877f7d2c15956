import { describe, expect, it } from 'vitest';
import type { LibraryBlock, LibraryCategory } from '@/lib/types';
import { isSearchActive, matchesBlock, searchBlocks, splitCategories } from './block-search';

function block(id: number, name: string, keywords: string, order = id): LibraryBlock {
  return {
    id,
    uid: `c/${id}`,
    name,
    keywords,
    order,
    image: null,
    category_id: 1,
    template: '',
    css: '',
    js: '',
  };
}

const categories: LibraryCategory[] = [
  {
    id: 2,
    key: null,
    name: 'Heroes',
    icon: '',
    order: 2,
    blocks: [block(3, 'Hero dividido', 'banner, topo'), block(4, 'Hero vídeo', 'youtube')],
  },
  {
    id: 1,
    key: 'elements',
    name: 'Elements',
    icon: '',
    order: 5,
    blocks: [block(1, 'Botão', 'button, link')],
  },
];

describe('block search', () => {
  it('starts at 2 characters', () => {
    expect(isSearchActive('h')).toBe(false);
    expect(isSearchActive(' h ')).toBe(false);
    expect(isSearchActive('he')).toBe(true);
    expect(searchBlocks(categories, 'h')).toEqual([]);
  });

  it('matches names and keywords, ignoring case and accents', () => {
    expect(matchesBlock(block(1, 'Botão', 'button'), 'BOTAO')).toBe(true);
    expect(matchesBlock(block(1, 'Botão', 'button, link'), 'lin')).toBe(true);
    expect(matchesBlock(block(1, 'Botão', 'button, link'), 'hero')).toBe(false);
    expect(searchBlocks(categories, 'video').map((b) => b.id)).toEqual([4]);
    expect(searchBlocks(categories, 'youtube').map((b) => b.id)).toEqual([4]);
    expect(searchBlocks(categories, 'her').map((b) => b.id)).toEqual([3, 4]);
  });

  it('sets Elements apart from the other categories', () => {
    const { elements, others } = splitCategories(categories);
    expect(elements?.id).toBe(1);
    expect(others.map((c) => c.id)).toEqual([2]);
  });
});
