import { describe, expect, it } from 'vitest';
import type { LibraryBlock, LibraryCategory } from '@/lib/types';
import { starterBlocks } from './starter-blocks';

let nextId = 1;
function category(name: string, order: number, names: string[], key: string | null = null): LibraryCategory {
  const id = nextId++;
  const blocks: LibraryBlock[] = names.map((blockName, i) => ({
    id: id * 100 + i,
    uid: `${name}/${i}`,
    name: blockName,
    image: null,
    keywords: '',
    category_id: id,
    // Listed backwards: the library's own order decides which block comes first.
    order: names.length - i,
    template: '',
    css: '',
    js: '',
  }));
  return { id, key, name, icon: '', order, blocks };
}

const names = (blocks: LibraryBlock[]) => blocks.map((block) => block.name);

describe('starterBlocks', () => {
  it("suggests the first block of the seeded library's header, hero, contact and footer categories", () => {
    const library = [
      category('Elementos', 0, ['Título'], 'elements'),
      category('Hero', 1, ['Hero dividido', 'Hero centralizado']),
      category('Recursos', 2, ['Grade']),
      category('Contato', 7, ['Newsletter', 'Formulário de contato']),
      category('Rodapé', 8, ['Rodapé mínimo', 'Rodapé simples']),
      category('Cabeçalho e navegação', 11, ['Barra de aviso', 'Cabeçalho com menu']),
    ];
    expect(names(starterBlocks(library))).toEqual([
      'Cabeçalho com menu',
      'Hero centralizado',
      'Formulário de contato',
      'Rodapé simples',
    ]);
  });

  it('fills missing kinds with the first block of other categories, never Elements, and skips empty ones', () => {
    const library = [
      category('Elements', 0, ['Button'], 'elements'),
      category('Hero', 1, ['Big hero']),
      category('Pricing', 2, []),
      category('Gallery', 3, ['Grid']),
      category('Site footer', 4, ['Simple footer']),
    ];
    expect(names(starterBlocks(library))).toEqual(['Big hero', 'Grid', 'Simple footer']);
  });

  it('suggests nothing from a library with no categories but Elements', () => {
    expect(starterBlocks([category('Elements', 0, ['Button'], 'elements')])).toEqual([]);
    expect(starterBlocks([])).toEqual([]);
  });
});
