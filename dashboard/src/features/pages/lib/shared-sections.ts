/**
 * Shared sections (like Webflow Symbols): the project's header and footer, stored once and
 * shown on every page above and below its own blocks, unless the page opts out in its meta.
 * The editor's canvas shows them with the page's blocks under their fixed uids; editing one
 * edits the shared block, never the page.
 */
import { newUid } from '@/features/pages/lib/page-blocks';
import type { PageBlock, PageMeta } from '@/features/pages/types';

export type SectionKind = 'header' | 'footer';

export const SECTION_KINDS: readonly SectionKind[] = ['header', 'footer'];

export interface Sections {
  header?: PageBlock;
  footer?: PageBlock;
}

/** The uid each section's block always has (the server sets it). */
export const SECTION_UID: Record<SectionKind, string> = {
  header: 'global-header',
  footer: 'global-footer',
};

/** The page meta key with which a page leaves a section out. */
export const OPT_OUT_KEY: Record<SectionKind, 'hideHeader' | 'hideFooter'> = {
  header: 'hideHeader',
  footer: 'hideFooter',
};

/** The page meta key with which a page leaves the site menu (`site.menu`). */
export const HIDE_IN_MENU = 'hideInMenu';

/** Which section a canvas uid is, if any. */
export function sectionOf(uid: string | null): SectionKind | null {
  return SECTION_KINDS.find((kind) => SECTION_UID[kind] === uid) ?? null;
}

/** Whether the page's meta turns a flag on. */
export function metaFlag(meta: PageMeta, key: string): boolean {
  return meta[key] === true;
}

/** The sections a page with `meta` shows. */
export function shownSections(sections: Sections, meta: PageMeta): Record<SectionKind, PageBlock | null> {
  const shown = (kind: SectionKind): PageBlock | null => {
    const block = sections[kind];
    return block && !metaFlag(meta, OPT_OUT_KEY[kind]) ? { ...block, uid: SECTION_UID[kind] } : null;
  };
  return { header: shown('header'), footer: shown('footer') };
}

/** What the canvas shows: the header, the page's blocks, the footer, each section's label marked. */
export function canvasBlocks(
  blocks: PageBlock[],
  shown: Record<SectionKind, PageBlock | null>,
  label: (kind: SectionKind, name: string) => string,
): PageBlock[] {
  const marked = (kind: SectionKind) => {
    const block = shown[kind];
    return block ? [{ ...block, name: label(kind, block.name) }] : [];
  };
  return [...marked('header'), ...blocks, ...marked('footer')];
}

/** A drop position among the canvas's blocks, as a position among the page's own. */
export function pageIndex(canvasIndex: number, hasHeader: boolean, count: number): number {
  return Math.max(0, Math.min(canvasIndex - (hasHeader ? 1 : 0), count));
}

/**
 * "Unlink" on this page: the page gets its own copy of the section (a page block again, at the
 * top for a header, at the bottom for a footer) and leaves the shared one out; other pages keep
 * showing the shared section. The copy's uid is `uid` when given (the editor's commands choose it).
 */
export function unlinkSection(
  blocks: PageBlock[],
  meta: PageMeta,
  kind: SectionKind,
  section: PageBlock,
  uid: string = newUid(new Set(blocks.map((block) => block.uid))),
): { blocks: PageBlock[]; meta: PageMeta; uid: string } {
  const copy: PageBlock = { ...section, uid };
  return {
    blocks: kind === 'header' ? [copy, ...blocks] : [...blocks, copy],
    meta: { ...meta, [OPT_OUT_KEY[kind]]: true },
    uid,
  };
}
