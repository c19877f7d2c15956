import { describe, expect, it } from 'vitest';
import type { PageBlock } from '@/features/pages/types';
import { canvasState, errorHtml, planCanvasUpdate, RenderCache } from './render-cache';

const block = (uid: string, title = 'a'): PageBlock => ({
  uid,
  name: uid,
  template: '<h1>{{ title }}</h1>',
  css: '',
  js: '',
  vars: [{ name: 'title', type: 'text', value: title }],
});

describe('RenderCache', () => {
  it('caches by content, so only edited blocks are missing', () => {
    const cache = new RenderCache();
    const a = block('a');
    cache.put(a, { uid: 'a', html: '<h1>a</h1>' });
    expect(cache.missing([a, block('b')]).map((b) => b.uid)).toEqual([]);
    expect(cache.missing([block('a', 'changed')]).map((b) => b.uid)).toEqual(['a']);
  });

  it('joins the output once every block is rendered; errors show in the canvas only, escaped', () => {
    const cache = new RenderCache();
    const a = block('a');
    const b = block('b', 'b');
    const c = block('c', 'c');
    expect(cache.output([a, b, c])).toBeUndefined();
    cache.put(a, { uid: 'a', html: '<h1>a</h1>' });
    cache.put(b, { uid: 'b', error: 'unknown filter <x>' });
    cache.put(c, { uid: 'c', html: '<h1>c</h1>' });
    expect(cache.get(b)).toBe(errorHtml('unknown filter <x>'));
    expect(cache.output([a, b, c])).toBe('<h1>a</h1>\n<h1>c</h1>');
    expect(errorHtml('<x>')).toContain('&#60;x&#62;');
  });
});

describe('planCanvasUpdate', () => {
  const blocks = [block('a'), block('b'), block('c')];
  const shown = canvasState(blocks);

  it('renders everything first and after structural changes', () => {
    expect(planCanvasUpdate(null, shown)).toEqual({ kind: 'render' });
    expect(planCanvasUpdate(shown, canvasState([blocks[1]!, blocks[0]!, blocks[2]!]))).toEqual({
      kind: 'render',
    });
    expect(planCanvasUpdate(shown, canvasState(blocks.slice(0, 2)))).toEqual({ kind: 'render' });
  });

  it('replaces an edited block in place', () => {
    expect(planCanvasUpdate(shown, shown)).toEqual({ kind: 'none' });
    expect(planCanvasUpdate(shown, canvasState([blocks[0]!, block('b', 'new'), blocks[2]!]))).toEqual({
      kind: 'replace',
      uids: ['b'],
    });
    const all = canvasState(blocks.map((b) => block(b.uid, 'x')));
    expect(planCanvasUpdate(shown, all, 2)).toEqual({ kind: 'render' });
  });
});
