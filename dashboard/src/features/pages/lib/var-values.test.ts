import { describe, expect, it } from 'vitest';
import {
  asBackground,
  asBool,
  asHeading,
  asImage,
  asLink,
  asOpacity,
  asPadding,
  asUnit,
  apiRecords,
  newItem,
  readSource,
  writeSource,
} from './var-values';

describe('variable values', () => {
  it('reads images and links in their documented shapes', () => {
    expect(asImage('/a.png')).toEqual({ src: '/a.png', alt: '' });
    expect(asImage({ src: '/a.png', alt: 'A' })).toEqual({ src: '/a.png', alt: 'A' });
    expect(asLink({ href: '/x', label: 'X', target: '_blank' })).toEqual({
      href: '/x',
      label: 'X',
      target: '_blank',
    });
    expect(asLink({ href: '/x', target: 'top' })).toEqual({ href: '/x', label: '', target: '_self' });
  });

  it('reads backgrounds with the four angles and nine positions', () => {
    expect(asBackground(undefined)).toEqual({
      type: 'solid',
      color: '#ffffff',
      color2: '#000000',
      angle: 90,
      image: '',
      position: 'center center',
    });
    expect(
      asBackground({ type: 'gradient', color: '#ABCDEF', angle: 135, position: 'bottom right' }),
    ).toMatchObject({
      type: 'gradient',
      color: '#abcdef',
      angle: 135,
      position: 'bottom right',
    });
    expect(asBackground({ angle: 30, position: 'middle' })).toMatchObject({
      angle: 90,
      position: 'center center',
    });
  });

  it('reads units, headings, padding and opacity within their limits', () => {
    expect(asUnit({ value: '12', unit: 'em' })).toEqual({ value: 12, unit: 'em' });
    expect(asUnit({ value: 5, unit: 'auto' })).toEqual({ value: null, unit: 'auto' });
    expect(asHeading('h3')).toBe('h3');
    expect(asHeading('script')).toBe('div');
    expect(asPadding({ top: -5, right: '8', bottom: 2 })).toEqual({ top: 0, right: 8, bottom: 2, left: 0 });
    expect(asOpacity(0.46)).toBe(0.5);
    expect(asOpacity(3)).toBe(1);
    expect(asOpacity(undefined)).toBe(1);
    expect(asBool('1')).toBe(true);
    expect(asBool(0)).toBe(false);
  });

  it('makes new list items from the sub-definitions defaults', () => {
    expect(
      newItem([
        { name: 'title', type: 'text', value: 'T' },
        { name: 'img', type: 'image', value: { src: '', alt: '' } },
        { name: 'n', type: 'number' },
      ]),
    ).toEqual({
      title: 'T',
      img: { src: '', alt: '' },
      n: '',
    });
  });

  it('reads and writes list sources', () => {
    expect(readSource(undefined)).toEqual({ kind: 'manual', target: '' });
    expect(readSource('db:produtos')).toEqual({ kind: 'db', target: 'produtos' });
    expect(readSource('api:https://x.test/a')).toEqual({ kind: 'api', target: 'https://x.test/a' });
    expect(writeSource('db', 'produtos')).toBe('db:produtos');
    expect(writeSource('manual', 'x')).toBe('manual');
  });
});

describe('apiRecords', () => {
  it('takes an array or an object whose data is one, capped at 100, with the first record paths', () => {
    expect(apiRecords([{ title: 'a', img: { src: 'x' } }])).toEqual({
      records: [{ title: 'a', img: { src: 'x' } }],
      paths: ['title', 'img.src'],
    });
    const many = Array.from({ length: 150 }, (_, i) => ({ i }));
    expect(apiRecords({ data: many })?.records).toHaveLength(100);
    expect(apiRecords({ items: [] })).toBeNull();
    expect(apiRecords('nope')).toBeNull();
    expect(apiRecords([])).toEqual({ records: [], paths: [] });
  });
});
