import { describe, expect, it } from 'vitest';
import type { PageBlock } from '@/features/pages/types';
import { canvasBlocks, pageIndex, sectionOf, shownSections, unlinkSection } from './shared-sections';

const b = (uid: string, name = uid): PageBlock => ({
  uid,
  name,
  template: `<p>${uid}</p>`,
  css: '',
  js: '',
  vars: [],
});
const uids = (blocks: PageBlock[]) => blocks.map((block) => block.uid);
const sections = { header: b('global-header', 'Topo'), footer: b('global-footer', 'Rodapé') };
const label = (kind: string, name: string) => `${kind}: ${name}`;

describe('shared sections on the canvas', () => {
  it('shows the header above and the footer below the page blocks, labels marked', () => {
    const shown = canvasBlocks([b('a'), b('c')], shownSections(sections, {}), label);
    expect(uids(shown)).toEqual(['global-header', 'a', 'c', 'global-footer']);
    expect(shown[0]?.name).toBe('header: Topo');
    expect(shown[3]?.name).toBe('footer: Rodapé');
  });

  it('leaves out a section the page opts out of, and sections the project lacks', () => {
    const noHeader = canvasBlocks([b('a')], shownSections(sections, { hideHeader: true }), label);
    expect(uids(noHeader)).toEqual(['a', 'global-footer']);
    const none = canvasBlocks([b('a')], shownSections({}, {}), label);
    expect(uids(none)).toEqual(['a']);
  });

  it('tells a section uid from a page block uid', () => {
    expect(sectionOf('global-header')).toBe('header');
    expect(sectionOf('global-footer')).toBe('footer');
    expect(sectionOf('b-1234')).toBeNull();
    expect(sectionOf(null)).toBeNull();
  });

  it('maps a drop on the canvas to a position among the page blocks', () => {
    expect(pageIndex(0, true, 2)).toBe(0);
    expect(pageIndex(1, true, 2)).toBe(0);
    expect(pageIndex(3, true, 2)).toBe(2);
    expect(pageIndex(4, true, 2)).toBe(2);
    expect(pageIndex(1, false, 2)).toBe(1);
  });
});

describe('unlinkSection', () => {
  it('gives the page its own copy at the top of a header, and opts the page out', () => {
    const header = sections.header;
    const result = unlinkSection([b('a')], { header: '<meta>' }, 'header', header);
    expect(result.blocks).toHaveLength(2);
    expect(result.blocks[0]?.uid).toBe(result.uid);
    expect(result.uid).not.toBe('global-header');
    expect(result.blocks[0]?.template).toBe(header.template);
    expect(result.meta).toEqual({ header: '<meta>', hideHeader: true });
  });

  it('puts a footer copy at the bottom', () => {
    const result = unlinkSection([b('a')], {}, 'footer', sections.footer);
    expect(uids(result.blocks)).toEqual(['a', result.uid]);
    expect(result.meta).toEqual({ hideFooter: true });
  });
});
