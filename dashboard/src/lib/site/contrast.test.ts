import { describe, expect, it } from 'vitest';
import { contrastRatio, normalizeHex, onColor, relativeLuminance, themeContrast } from './contrast';

describe('normalizeHex', () => {
  it.each([
    ['#ABC', '#aabbcc'],
    ['abc', '#aabbcc'],
    ['#B45309', '#b45309'],
    [' #fffbeb ', '#fffbeb'],
    ['#abcd', null],
    ['red', null],
    ['', null],
  ])('%j → %j', (input, expected) => expect(normalizeHex(input)).toBe(expected));
});

describe('WCAG contrast', () => {
  it('gives black and white their luminances and 21:1', () => {
    expect(relativeLuminance('#000000')).toBe(0);
    expect(relativeLuminance('#ffffff')).toBeCloseTo(1, 10);
    expect(contrastRatio('#000', '#fff')).toBeCloseTo(21, 10);
    expect(contrastRatio('#fff', '#000')).toBeCloseTo(21, 10);
  });

  it('matches known pairs (WebAIM checker figures)', () => {
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    expect(contrastRatio('#1f2937', '#fffbeb')).toBeCloseTo(14.2, 1);
  });

  it('answers null for what is not a colour', () => {
    expect(contrastRatio('', '#fff')).toBeNull();
  });

  it('puts white on dark colours and near-black on light ones', () => {
    expect(onColor('#b45309')).toBe('#ffffff');
    expect(onColor('#f59e0b')).toBe('#111111');
    expect(onColor('#ffffff')).toBe('#111111');
  });
});

describe('themeContrast', () => {
  it('passes the contract example theme but its accent pair, judged at 3:1', () => {
    const result = themeContrast({
      primary: '#b45309',
      accent: '#f59e0b',
      background: '#fffbeb',
      text: '#1f2937',
    });
    expect(result.text).toBeGreaterThan(12);
    expect(result.primary).toBeGreaterThan(4.5);
    expect(result.accent).toBeGreaterThan(3);
    expect(result.warnings).toEqual([]);
  });

  it('warns for each pair below its threshold', () => {
    // #777777 is the mid grey neither white (4.48) nor #111111 (4.2) reaches 4.5 on.
    const result = themeContrast({
      primary: '#777777',
      accent: '#999999',
      background: '#ffffff',
      text: '#aaaaaa',
    });
    expect(result.primary).toBeCloseTo(4.48, 2);
    expect(result.warnings).toEqual(['low_contrast_text', 'low_contrast_primary']);
    const textOnly = themeContrast({
      primary: '#000000',
      accent: '#000000',
      background: '#fff',
      text: '#ffff00',
    });
    expect(textOnly.warnings).toEqual(['low_contrast_text']);
  });
});
