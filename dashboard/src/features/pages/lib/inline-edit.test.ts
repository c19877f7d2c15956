// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import type { PageBlock } from '@/features/pages/types';
import { inlineTarget, inlineValue, markupShape, normalText, richTextContent } from './inline-edit';

const block: PageBlock = {
  uid: 'b-1',
  name: 'Hero',
  template: '',
  css: '',
  js: '',
  vars: [
    { name: 'title', type: 'text', value: 'Olá  <mundo>' },
    { name: 'color', type: 'color', value: 'Bolo' },
    { name: 'bound', type: 'text', value: 'Ligado', postfield: 'name' },
    { name: 'empty', type: 'text', value: '' },
    { name: 'body', type: 'richtext', value: '<p>Um <b>dois</b></p><p>três</p>' },
    { name: 'notes', type: 'textarea', value: 'linha 1\nlinha 2' },
  ],
};

describe('inlineTarget', () => {
  /** Texts only: markup that is the text itself. */
  const plain = (texts: string[]) => inlineTarget(block, texts, texts);

  it('finds the field whose shown text the clicked element or an ancestor has', () => {
    expect(plain(['\n  Olá <mundo>  '])).toEqual({ name: 'title', kind: 'text', depth: 0 });
    expect(plain(['linha 1 linha 2'])).toEqual({ name: 'notes', kind: 'textarea', depth: 0 });
  });

  it('finds the element holding the whole rich-text value, not a part or a wrapper of it', () => {
    // <section><div class="rt"><p>Um <b>dois</b></p><p>três</p></div></section>, "dois" clicked.
    const texts = ['dois', 'Um dois', 'Um doistrês', 'Um doistrês'];
    const htmls = [
      'dois',
      'Um <b>dois</b>',
      '\n <p>Um <b>dois</b></p><p>três</p> ',
      '<div class="rt"><p>Um <b>dois</b></p><p>três</p></div>',
    ];
    expect(inlineTarget(block, texts, htmls)).toEqual({ name: 'body', kind: 'richtext', depth: 2 });
    // Its text, but other markup around the value (a wrapper): not this field's element.
    expect(inlineTarget(block, texts.slice(3), htmls.slice(3))).toBeNull();
  });

  it('matches no other type, no field bound to the post and no empty text', () => {
    expect(plain(['Bolo'])).toBeNull();
    expect(plain(['Ligado'])).toBeNull();
    expect(plain(['', '   '])).toBeNull();
    expect(plain(['Olá mundo'])).toBeNull();
  });
});

describe('markupShape', () => {
  it('lists the top-level nodes, without white space or comments', () => {
    expect(markupShape(' <p>a</p>\n<!-- x --><ul><li>b</li></ul> ')).toBe('P UL');
    expect(markupShape('Olá <b>x</b>')).toBe('#text B');
  });
});

describe('inlineValue', () => {
  it('keeps a one-line field on one line and rich text as edited', () => {
    expect(inlineValue('text', 'a\nb\r\nc')).toBe('a b c');
    expect(inlineValue('textarea', 'a\nb')).toBe('a\nb');
    expect(inlineValue('richtext', '<p>a</p>\n<p>b</p>')).toBe('<p>a</p>\n<p>b</p>');
  });
});

describe('text helpers', () => {
  it('normalises white space and reads rich text without running it', () => {
    expect(normalText('  a \n\t b ')).toBe('a b');
    expect(richTextContent('<p>a<img src=x onerror="window.hit=1">b</p>')).toBe('ab');
    expect((window as unknown as { hit?: number }).hit).toBeUndefined();
  });
});
