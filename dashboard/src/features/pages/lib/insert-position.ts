/**
 * Where "Adicionar" in the block library puts a block (a drop on the canvas gives its own place):
 *
 * 1. right after the selected block;
 * 2. with none selected, before the page's footer section;
 * 3. else (no footer) at the end.
 *
 * A page block is a footer when the global library's block it came from (`block_id`) is in a
 * category whose name says footer, or, for blocks with no library category (My Blocks, the
 * business's library, a library block since deleted), when its own name does. "Says footer" is the
 * whole word "rodapé" or "footer" (or their plurals), whatever the case and accents: "Rodapé
 * simples", "Site Footer", "RODAPES" do; "Footerless" and "Contato" don't.
 * The footer section is the last footer block together with the footer blocks right before it
 * (a newsletter footer over a copyright bar is one section), so a new block never lands between
 * two of them. Keywords are not read: a contact block may well list "rodapé" among them.
 */
import type { BlockLibrary, PageBlock } from '@/features/pages/types';

/** Lower case without accents: "Rodapé" → "rodape". */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * Whether `text` holds one of `words` (written lower case without accents) as a whole word, or
 * its plural in s, whatever the case and accents of `text`.
 */
export function hasWord(text: string, words: readonly string[]): boolean {
  const folded = fold(text);
  return words.some((word) =>
    new RegExp(`(^|[^\\p{L}\\p{N}])${word}s?($|[^\\p{L}\\p{N}])`, 'u').test(folded),
  );
}

/** Whether `text` holds the whole word "rodapé" or "footer". */
export function saysFooter(text: string): boolean {
  return hasWord(text, ['rodape', 'footer']);
}

/** A test of "is this page block a footer", from the library's categories (see the module doc). */
export function footerTest(library: BlockLibrary): (block: PageBlock) => boolean {
  const categoryOf = new Map<number, string>();
  for (const category of library.categories) {
    for (const block of category.blocks) categoryOf.set(block.id, category.name);
  }
  return (block) => {
    const category = typeof block.block_id === 'number' ? categoryOf.get(block.block_id) : undefined;
    return category !== undefined ? saysFooter(category) : saysFooter(block.name);
  };
}

/** The index "Adicionar" inserts at in `blocks` (see the module doc). */
export function insertPosition(
  blocks: readonly PageBlock[],
  selected: string | null,
  isFooter: (block: PageBlock) => boolean,
): number {
  const at = selected === null ? -1 : blocks.findIndex((block) => block.uid === selected);
  if (at >= 0) return at + 1;
  let start = blocks.length - 1;
  while (start >= 0 && !isFooter(blocks[start] as PageBlock)) start -= 1;
  if (start < 0) return blocks.length;
  while (start > 0 && isFooter(blocks[start - 1] as PageBlock)) start -= 1;
  return start;
}
