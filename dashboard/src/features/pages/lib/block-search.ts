/**
 * The left panel's block search (spec §2, §9): active from 2 characters; a block matches when
 * its name or one of its comma-separated keywords contains the term (case and accents ignored).
 */
import type { LibraryBlock, LibraryCategory } from '@/lib/types';
import type { BusinessBlock } from '@/features/pages/types';

export const SEARCH_MIN_CHARS = 2;

/** Key of the special "Elements" category. */
export const ELEMENTS_KEY = 'elements';

function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

export function isSearchActive(term: string): boolean {
  return term.trim().length >= SEARCH_MIN_CHARS;
}

export function matchesBlock(block: Pick<LibraryBlock, 'name' | 'keywords'>, term: string): boolean {
  const needle = fold(term.trim());
  if (fold(block.name).includes(needle)) return true;
  return block.keywords
    .split(',')
    .map((keyword) => fold(keyword.trim()))
    .some((keyword) => keyword !== '' && keyword.includes(needle));
}

/** Every library block that matches, in category then block order. */
export function searchBlocks(categories: LibraryCategory[], term: string): LibraryBlock[] {
  if (!isSearchActive(term)) return [];
  return sortCategories(categories).flatMap((category) =>
    sortBlocks(category.blocks).filter((block) => matchesBlock(block, term)),
  );
}

export function sortCategories(categories: LibraryCategory[]): LibraryCategory[] {
  return [...categories].sort((a, b) => a.order - b.order || a.id - b.id);
}

export function sortBlocks<T extends Pick<LibraryBlock, 'order' | 'id'>>(blocks: T[]): T[] {
  return [...blocks].sort((a, b) => a.order - b.order || a.id - b.id);
}

/** The business's library blocks that match, in order. */
export function searchBusinessBlocks(blocks: BusinessBlock[], term: string): BusinessBlock[] {
  if (!isSearchActive(term)) return [];
  return sortBlocks(blocks).filter((block) => matchesBlock(block, term));
}

/** "Elements" first (a special category), then the others by order. */
export function splitCategories(categories: LibraryCategory[]): {
  elements: LibraryCategory | null;
  others: LibraryCategory[];
} {
  const sorted = sortCategories(categories);
  return {
    elements: sorted.find((category) => category.key === ELEMENTS_KEY) ?? null,
    others: sorted.filter((category) => category.key !== ELEMENTS_KEY),
  };
}
