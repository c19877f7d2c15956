/**
 * Pure operations on a page's blocks (docs/blocks.md "A block in a page"): inserting from the
 * library, My Blocks or the business's library, moving, duplicating, removing, editing a
 * variable, effects. Every function returns a new array, so each result can be a history
 * snapshot.
 */
import type { LibraryBlock } from '@/lib/types';
import type {
  BlockLibrary,
  BlockSource,
  BusinessBlock,
  MyBlock,
  PageBlock,
  VarChange,
} from '@/features/pages/types';
import { extractXVars } from './x-vars';

export const EFFECTS = [
  'fade-in',
  'enter-left',
  'enter-right',
  'enter-top',
  'enter-bottom',
  'zoom-in',
  'rotate-left',
  'rotate-right',
] as const;
export type Effect = (typeof EFFECTS)[number];

/** A page-unique id ("b-" and 8 hex digits). */
export function newUid(taken: ReadonlySet<string> = new Set()): string {
  for (;;) {
    const bytes = new Uint8Array(4);
    crypto.getRandomValues(bytes);
    const uid = `b-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
    if (!taken.has(uid)) return uid;
  }
}

export type FromLibrary = { ok: true; block: PageBlock } | { ok: false; reason: string };

/** The block `id` of the panel's `source` (global library, My Blocks or the business's library). */
export function sourceBlock(
  library: BlockLibrary,
  source: BlockSource,
  id: number,
): LibraryBlock | MyBlock | BusinessBlock | undefined {
  const list: (LibraryBlock | MyBlock | BusinessBlock)[] =
    source === 'my'
      ? library.my_blocks
      : source === 'business'
        ? library.business_blocks
        : library.categories.flatMap((category) => category.blocks);
  return list.find((block) => block.id === id);
}

/**
 * A page block from a library block, a My Blocks entry or a block of the business's library:
 * new uid, its origin id, a copy of the code, and the x-vars definitions moved into `vars`
 * (with their default values).
 */
export function blockFromSource(
  source: LibraryBlock | MyBlock | BusinessBlock,
  origin: BlockSource,
  uid: string,
): FromLibrary {
  const parsed = extractXVars(source.template);
  if (!parsed.ok) return parsed;
  const block: PageBlock = {
    uid,
    block_id: origin === 'library' ? source.id : null,
    myblock_id: origin === 'my' ? source.id : null,
    ...(origin === 'business' ? { business_block_id: source.id } : {}),
    name: source.name,
    template: parsed.template,
    css: source.css,
    js: source.js,
    vars: parsed.vars,
  };
  if ('image' in source) block.image = source.image;
  return { ok: true, block };
}

/** The page's stored blocks, keeping only well-formed entries. */
export function readBlocks(value: unknown): PageBlock[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter(
      (item): item is PageBlock =>
        typeof item === 'object' &&
        item !== null &&
        typeof (item as PageBlock).uid === 'string' &&
        typeof (item as PageBlock).template === 'string',
    )
    .map((block) => ({
      ...block,
      css: block.css ?? '',
      js: block.js ?? '',
      vars: Array.isArray(block.vars) ? block.vars : [],
    }));
}

export function insertBlock(
  blocks: PageBlock[],
  block: PageBlock,
  index: number = blocks.length,
): PageBlock[] {
  const at = Math.max(0, Math.min(index, blocks.length));
  return [...blocks.slice(0, at), block, ...blocks.slice(at)];
}

/** Moves the block `uid` so that it lands at `index` of the resulting list. */
export function moveBlock(blocks: PageBlock[], uid: string, index: number): PageBlock[] {
  const from = blocks.findIndex((block) => block.uid === uid);
  if (from < 0) return blocks;
  const rest = blocks.filter((block) => block.uid !== uid);
  const to = Math.max(0, Math.min(index, rest.length));
  if (to === from) return blocks;
  return [...rest.slice(0, to), blocks[from] as PageBlock, ...rest.slice(to)];
}

/** Index to pass to moveBlock for a drop at `dropAt` (an insertion index in the current list). */
export function moveTarget(blocks: PageBlock[], uid: string, dropAt: number): number {
  const from = blocks.findIndex((block) => block.uid === uid);
  return from >= 0 && from < dropAt ? dropAt - 1 : dropAt;
}

export function duplicateBlock(blocks: PageBlock[], uid: string, copyUid: string): PageBlock[] {
  const index = blocks.findIndex((block) => block.uid === uid);
  if (index < 0) return blocks;
  const copy: PageBlock = { ...structuredClone(blocks[index] as PageBlock), uid: copyUid };
  return insertBlock(blocks, copy, index + 1);
}

export function removeBlock(blocks: PageBlock[], uid: string): PageBlock[] {
  return blocks.filter((block) => block.uid !== uid);
}

export function updateBlock(
  blocks: PageBlock[],
  uid: string,
  patch: Partial<Omit<PageBlock, 'uid'>>,
): PageBlock[] {
  return blocks.map((block) => (block.uid === uid ? { ...block, ...patch } : block));
}

/** Changes one variable definition (its value, binding or list source) of one block. */
export function updateVar(blocks: PageBlock[], uid: string, name: string, change: VarChange): PageBlock[] {
  return blocks.map((block) =>
    block.uid === uid
      ? {
          ...block,
          vars: block.vars.map((v) =>
            v.name === name ? { ...v, ...(typeof change === 'function' ? change(v) : change) } : v,
          ),
        }
      : block,
  );
}

/** Turns one effect on or off in a space-separated combination (kept in the list's order). */
export function toggleEffect(effect: string | undefined, name: Effect): string {
  const active = new Set((effect ?? '').split(/\s+/).filter(Boolean));
  if (active.has(name)) active.delete(name);
  else active.add(name);
  return EFFECTS.filter((e) => active.has(e)).join(' ');
}

export function hasEffect(effect: string | undefined, name: Effect): boolean {
  return (effect ?? '').split(/\s+/).includes(name);
}
