import { describe, expect, it } from 'vitest';
import { dropIndex, MAX_EDIT_DEPTH, MAX_EDIT_VALUE, message, readCanvasMessage } from './canvas-protocol';

const canvas = {} as Window;
const other = {} as Window;

describe('readCanvasMessage', () => {
  it('accepts versioned messages from the canvas window', () => {
    expect(readCanvasMessage({ source: canvas, data: { vitrine: 1, type: 'ready' } }, canvas)).toEqual({
      vitrine: 1,
      type: 'ready',
    });
    expect(
      readCanvasMessage({ source: canvas, data: { vitrine: 1, type: 'select-block', uid: 'b-1' } }, canvas),
    ).toEqual({
      vitrine: 1,
      type: 'select-block',
      uid: 'b-1',
    });
    for (const uid of ['b-1', null]) {
      const hover = { vitrine: 1, type: 'hover-block', uid };
      expect(readCanvasMessage({ source: canvas, data: hover }, canvas)).toEqual(hover);
    }
    const layout = { vitrine: 1, type: 'layout', boxes: [{ uid: 'b-1', top: 0, height: 40 }], scrollY: 12 };
    expect(readCanvasMessage({ source: canvas, data: layout }, canvas)).toEqual(layout);
  });

  it('reads inline edits, keeping only the fields each message has', () => {
    const read = (data: unknown) => readCanvasMessage({ source: canvas, data }, canvas);
    expect(
      read({ vitrine: 1, type: 'edit-request', uid: 'b-1', texts: ['a', 'ab'], htmls: ['a', '<b>a</b>b'] }),
    ).toEqual({
      vitrine: 1,
      type: 'edit-request',
      uid: 'b-1',
      texts: ['a', 'ab'],
      htmls: ['a', '<b>a</b>b'],
    });
    // A commit names no block or field: anything of the kind it carries is dropped.
    expect(
      read({ vitrine: 1, type: 'edit-commit', token: 't1', value: 'x', uid: 'b-2', name: 'other' }),
    ).toEqual({ vitrine: 1, type: 'edit-commit', token: 't1', value: 'x' });
    expect(read({ vitrine: 1, type: 'edit-cancel', token: 't1' })).toEqual({
      vitrine: 1,
      type: 'edit-cancel',
      token: 't1',
    });
  });

  it('refuses malformed or oversized inline edits', () => {
    const read = (data: unknown) => readCanvasMessage({ source: canvas, data }, canvas);
    expect(read({ vitrine: 1, type: 'edit-request', uid: 'b-1', texts: [], htmls: [] })).toBeNull();
    expect(read({ vitrine: 1, type: 'edit-request', uid: 'b-1', texts: [1], htmls: ['1'] })).toBeNull();
    expect(read({ vitrine: 1, type: 'edit-request', uid: 'b-1', texts: ['a'] })).toBeNull();
    expect(
      read({ vitrine: 1, type: 'edit-request', uid: 'b-1', texts: ['a'], htmls: ['a', 'b'] }),
    ).toBeNull();
    expect(read({ vitrine: 1, type: 'edit-request', texts: ['a'], htmls: ['a'] })).toBeNull();
    const deep = Array<string>(MAX_EDIT_DEPTH + 1).fill('a');
    expect(read({ vitrine: 1, type: 'edit-request', uid: 'b-1', texts: deep, htmls: deep })).toBeNull();
    expect(read({ vitrine: 1, type: 'edit-commit', token: 't1', value: { html: 'x' } })).toBeNull();
    expect(read({ vitrine: 1, type: 'edit-commit', value: 'x' })).toBeNull();
    expect(
      read({ vitrine: 1, type: 'edit-commit', token: 't1', value: 'x'.repeat(MAX_EDIT_VALUE + 1) }),
    ).toBeNull();
    expect(read({ vitrine: 1, type: 'edit-cancel' })).toBeNull();
  });

  it('ignores messages from any other window', () => {
    expect(readCanvasMessage({ source: other, data: { vitrine: 1, type: 'ready' } }, canvas)).toBeNull();
    expect(readCanvasMessage({ source: null, data: { vitrine: 1, type: 'ready' } }, canvas)).toBeNull();
    expect(readCanvasMessage({ source: canvas, data: { vitrine: 1, type: 'ready' } }, null)).toBeNull();
  });

  it('ignores other versions and malformed bodies', () => {
    expect(readCanvasMessage({ source: canvas, data: { vitrine: 2, type: 'ready' } }, canvas)).toBeNull();
    expect(readCanvasMessage({ source: canvas, data: { type: 'ready' } }, canvas)).toBeNull();
    expect(readCanvasMessage({ source: canvas, data: 'ready' }, canvas)).toBeNull();
    expect(
      readCanvasMessage({ source: canvas, data: { vitrine: 1, type: 'select-block', uid: 3 } }, canvas),
    ).toBeNull();
    expect(
      readCanvasMessage({ source: canvas, data: { vitrine: 1, type: 'hover-block' } }, canvas),
    ).toBeNull();
    expect(
      readCanvasMessage(
        { source: canvas, data: { vitrine: 1, type: 'layout', boxes: [{ uid: 'a' }], scrollY: 0 } },
        canvas,
      ),
    ).toBeNull();
    expect(
      readCanvasMessage({ source: canvas, data: { vitrine: 1, type: 'navigate', url: 'x' } }, canvas),
    ).toBeNull();
  });
});

describe('message', () => {
  it('stamps the protocol version', () => {
    expect(message({ type: 'select', uid: 'b-2' })).toEqual({ vitrine: 1, type: 'select', uid: 'b-2' });
  });
});

describe('dropIndex', () => {
  const boxes = [
    { uid: 'a', top: 0, height: 100 },
    { uid: 'b', top: 100, height: 200 },
  ];
  it('inserts before the first block whose middle is below the point', () => {
    expect(dropIndex(boxes, 10)).toBe(0);
    expect(dropIndex(boxes, 60)).toBe(1);
    expect(dropIndex(boxes, 150)).toBe(1);
    expect(dropIndex(boxes, 260)).toBe(2);
    expect(dropIndex([], 5)).toBe(0);
  });
});
