import { describe, expect, it } from 'vitest';
import type { BlockLibrary, PageBlock } from '@/features/pages/types';
import {
  blockFromSource,
  duplicateBlock,
  hasEffect,
  insertBlock,
  moveBlock,
  moveTarget,
  newUid,
  readBlocks,
  removeBlock,
  sourceBlock,
  toggleEffect,
  updateVar,
} from './page-blocks';

const b = (uid: string): PageBlock => ({
  uid,
  name: uid,
  template: `<p>${uid}</p>`,
  css: '',
  js: '',
  vars: [],
});
const uids = (blocks: PageBlock[]) => blocks.map((block) => block.uid);

describe('blockFromSource', () => {
  it('copies a library block, moving x-vars into vars', () => {
    const result = blockFromSource(
      {
        id: 12,
        uid: 'heroes/split',
        name: 'Hero dividido',
        image: '/i.png',
        keywords: '',
        category_id: 1,
        order: 1,
        template: `<section x-vars='[{"name":"title","type":"text","value":"Olá"}]'>{{ title }}</section>`,
        css: 'section{}',
        js: 'x()',
      },
      'library',
      'b-1',
    );
    expect(result).toEqual({
      ok: true,
      block: {
        uid: 'b-1',
        block_id: 12,
        myblock_id: null,
        name: 'Hero dividido',
        image: '/i.png',
        template: '<section>{{ title }}</section>',
        css: 'section{}',
        js: 'x()',
        vars: [{ name: 'title', type: 'text', value: 'Olá' }],
      },
    });
  });

  it('records a My Blocks origin and reports bad x-vars', () => {
    const mine = blockFromSource({ id: 3, name: 'Mine', template: '<p></p>', css: '', js: '' }, 'my', 'b-2');
    expect(mine.ok && mine.block.myblock_id).toBe(3);
    expect(mine.ok && mine.block.block_id).toBeNull();
    expect(
      blockFromSource(
        { id: 3, name: 'Bad', template: `<p x-vars='[oops'></p>`, css: '', js: '' },
        'my',
        'b-3',
      ).ok,
    ).toBe(false);
  });

  it("records a business library origin, and finds a block by its panel's source", () => {
    const library: BlockLibrary = {
      categories: [],
      my_blocks: [{ id: 4, name: 'Mine', template: '<p>m</p>', css: '', js: '' }],
      business_blocks: [
        {
          id: 4,
          name: 'Da empresa',
          image: '',
          keywords: '',
          template: '<p>e</p>',
          css: '',
          js: '',
          order: 1,
          updated_at: '',
        },
      ],
    };
    const origin = sourceBlock(library, 'business', 4);
    expect(origin?.name).toBe('Da empresa');
    expect(sourceBlock(library, 'my', 4)?.name).toBe('Mine');
    expect(sourceBlock(library, 'library', 4)).toBeUndefined();
    const made = origin ? blockFromSource(origin, 'business', 'b-4') : null;
    expect(made?.ok && made.block).toMatchObject({
      business_block_id: 4,
      block_id: null,
      myblock_id: null,
      template: '<p>e</p>',
      image: '',
    });
  });
});

describe('block list operations', () => {
  const list = [b('a'), b('b'), b('c')];

  it('inserts at an index, clamped, at the end by default', () => {
    expect(uids(insertBlock(list, b('x'), 1))).toEqual(['a', 'x', 'b', 'c']);
    expect(uids(insertBlock(list, b('x')))).toEqual(['a', 'b', 'c', 'x']);
    expect(uids(insertBlock(list, b('x'), -4))).toEqual(['x', 'a', 'b', 'c']);
  });

  it('moves a block to a drop position', () => {
    expect(uids(moveBlock(list, 'a', moveTarget(list, 'a', 3)))).toEqual(['b', 'c', 'a']);
    expect(uids(moveBlock(list, 'c', moveTarget(list, 'c', 0)))).toEqual(['c', 'a', 'b']);
    expect(uids(moveBlock(list, 'a', moveTarget(list, 'a', 2)))).toEqual(['b', 'a', 'c']);
    expect(moveBlock(list, 'b', moveTarget(list, 'b', 1))).toBe(list);
    expect(moveBlock(list, 'zz', 0)).toBe(list);
  });

  it('duplicates after the original with a new uid and a deep copy', () => {
    const withVars = [{ ...b('a'), vars: [{ name: 't', type: 'text' as const, value: 'x' }] }, b('b')];
    const result = duplicateBlock(withVars, 'a', 'a2');
    expect(uids(result)).toEqual(['a', 'a2', 'b']);
    expect(result[1]?.vars).toEqual(withVars[0]?.vars);
    expect(result[1]?.vars).not.toBe(withVars[0]?.vars);
  });

  it('removes a block and edits one variable', () => {
    expect(uids(removeBlock(list, 'b'))).toEqual(['a', 'c']);
    const withVars = [
      {
        ...b('a'),
        vars: [
          { name: 't', type: 'text' as const, value: 'x' },
          { name: 'u', type: 'text' as const },
        ],
      },
    ];
    const edited = updateVar(withVars, 'a', 't', { value: 'y' });
    expect(edited[0]?.vars).toEqual([
      { name: 't', type: 'text', value: 'y' },
      { name: 'u', type: 'text' },
    ]);
    expect(withVars[0]?.vars[0]?.value).toBe('x');
    const late = updateVar(edited, 'a', 't', (v) => ({ value: `${String(v.value)}!` }));
    expect(late[0]?.vars[0]?.value).toBe('y!');
  });

  it('reads stored blocks defensively', () => {
    expect(readBlocks(null)).toEqual([]);
    expect(readBlocks([{ uid: 'a', template: '<p></p>', name: 'A' }, { nope: 1 }])).toEqual([
      { uid: 'a', template: '<p></p>', name: 'A', css: '', js: '', vars: [] },
    ]);
  });

  it('makes unique uids', () => {
    const uid = newUid();
    expect(uid).toMatch(/^b-[0-9a-f]{8}$/);
    expect(newUid(new Set([uid]))).not.toBe(uid);
  });
});

describe('effects', () => {
  it('combines effects in a fixed order and toggles them off', () => {
    let effect = toggleEffect(undefined, 'zoom-in');
    effect = toggleEffect(effect, 'fade-in');
    expect(effect).toBe('fade-in zoom-in');
    expect(hasEffect(effect, 'zoom-in')).toBe(true);
    expect(toggleEffect(effect, 'zoom-in')).toBe('fade-in');
    expect(hasEffect('fade-in', 'zoom-in')).toBe(false);
  });
});
