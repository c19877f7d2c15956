/**
 * The blocks a blank page suggests (one click adds one): the first block of the library's
 * header, hero, contact and footer categories, found by their names' words ("Cabeçalho e
 * navegação", "Hero", "Contato", "Rodapé", or the English words), in that order. A library
 * without some of them fills the places left with the first block of its other categories
 * (not Elements, whose single elements start no page), so a blank page shows up to four.
 */
import type { LibraryBlock, LibraryCategory } from '@/lib/types';
import { sortBlocks, splitCategories } from './block-search';
import { hasWord } from './insert-position';

const KINDS: readonly (readonly string[])[] = [
  ['cabecalho', 'header', 'navegacao', 'navigation', 'menu'],
  ['hero', 'capa', 'banner'],
  ['contato', 'contact'],
  ['rodape', 'footer'],
];

export const STARTER_COUNT = 4;

export function starterBlocks(categories: LibraryCategory[]): LibraryBlock[] {
  const { others } = splitCategories(categories);
  const withBlocks = others.filter((category) => category.blocks.length > 0);
  const first = (category: LibraryCategory) => sortBlocks(category.blocks)[0] as LibraryBlock;
  const picked: LibraryCategory[] = [];
  for (const words of KINDS) {
    const match = withBlocks.find((category) => !picked.includes(category) && hasWord(category.name, words));
    if (match) picked.push(match);
  }
  for (const category of withBlocks) {
    if (picked.length >= STARTER_COUNT) break;
    if (!picked.includes(category)) picked.push(category);
  }
  // The kinds' page order (header first, footer last) also for the fillers: by category order.
  const kindOf = (category: LibraryCategory) => {
    const kind = KINDS.findIndex((words) => hasWord(category.name, words));
    return kind === -1 ? 2.5 : kind;
  };
  return picked
    .slice(0, STARTER_COUNT)
    .sort((a, b) => kindOf(a) - kindOf(b))
    .map(first);
}
