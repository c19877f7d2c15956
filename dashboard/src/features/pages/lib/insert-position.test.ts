import { describe, expect, it } from 'vitest';
import type { BlockLibrary, PageBlock } from '@/features/pages/types';
import { footerTest, insertPosition, saysFooter } from './insert-position';

function block(uid: string, name: string, blockId: number | null = null): PageBlock {
  return { uid, block_id: blockId, myblock_id: null, name, template: '', css: '', js: '', vars: [] };
}

const libraryBlock = (id: number, name: string, category_id: number) => ({
  id,
  uid: `x/${id}`,
  name,
  image: null,
  keywords: 'rodapé, footer',
  category_id,
  order: id,
  template: '',
  css: '',
  js: '',
});

const library: BlockLibrary = {
  categories: [
    {
      id: 1,
      key: null,
      name: 'Hero',
      icon: '',
      order: 1,
      blocks: [libraryBlock(10, 'Hero centralizado', 1)],
    },
    { id: 8, key: null, name: 'Rodapé', icon: '', order: 8, blocks: [libraryBlock(80, 'Simples', 8)] },
    { id: 7, key: null, name: 'Contato', icon: '', order: 7, blocks: [libraryBlock(70, 'Newsletter', 7)] },
  ],
  my_blocks: [],
  business_blocks: [],
};
const isFooter = footerTest(library);

describe('saysFooter', () => {
  it('finds the whole word rodapé or footer, whatever the case, accents and number', () => {
    expect(
      ['Rodapé', 'Rodapé simples', 'RODAPE', 'Site Footer', 'footers', 'Rodapés', 'Meu-rodapé'].map(
        saysFooter,
      ),
    ).toEqual([true, true, true, true, true, true, true]);
    expect(['Contato', 'Footerless', 'Cabeçalho', 'rodapezinho', ''].map(saysFooter)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('footerTest', () => {
  it("reads a library block's category, and the block's own name only when it has no category", () => {
    // From the "Rodapé" category, whatever its name.
    expect(isFooter(block('a', 'Simples', 80))).toBe(true);
    // Its category is not a footer one: the name does not count (nor the keywords).
    expect(isFooter(block('b', 'Newsletter do rodapé', 70))).toBe(false);
    // My Blocks / business blocks / a deleted library block: the name decides.
    expect(isFooter(block('c', 'Meu rodapé'))).toBe(true);
    expect(isFooter(block('d', 'Rodapé antigo', 999))).toBe(true);
    expect(isFooter(block('e', 'Hero'))).toBe(false);
  });
});

describe('insertPosition', () => {
  const hero = block('hero', 'Hero centralizado', 10);
  const text = block('text', 'Texto');
  const footer = block('footer', 'Simples', 80);
  const bar = block('bar', 'Barra de rodapé');

  it('puts the block right after the selected one', () => {
    expect(insertPosition([hero, text, footer], 'hero', isFooter)).toBe(1);
    expect(insertPosition([hero, text, footer], 'footer', isFooter)).toBe(3);
  });

  it('with none selected, puts it before the footer section', () => {
    expect(insertPosition([hero, text, footer], null, isFooter)).toBe(2);
    // Footer blocks next to each other are one section.
    expect(insertPosition([hero, footer, bar], null, isFooter)).toBe(1);
    // The last footer's section, even with blocks after it.
    expect(insertPosition([footer, hero, bar, text], null, isFooter)).toBe(2);
    expect(insertPosition([footer], null, isFooter)).toBe(0);
  });

  it('with none selected and no footer, puts it at the end', () => {
    expect(insertPosition([hero, text], null, isFooter)).toBe(2);
    expect(insertPosition([], null, isFooter)).toBe(0);
  });

  it('treats a selection that is no longer on the page as none', () => {
    expect(insertPosition([hero, footer], 'gone', isFooter)).toBe(1);
  });
});
