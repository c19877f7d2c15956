import { describe, expect, it } from 'vitest';
import catalogue from '@/features/projects/fonts-catalogue.json';
import { isFaviconFile, isWoff2, maxFontMatches, newFont, searchFonts } from './fonts';

describe('font catalogue', () => {
  it('ships Open Sans with its variants', () => {
    const openSans = catalogue.find((font) => font.family === 'Open Sans');
    expect(openSans?.variants).toContain('regular');
    expect(openSans?.variants).toContain('700');
  });

  it('shows at most 10 matches, prefix matches first', () => {
    const matches = searchFonts(catalogue, 'sans');
    expect(matches.length).toBe(maxFontMatches);
    expect(searchFonts(catalogue, 'open s')[0]?.family).toBe('Open Sans');
  });

  it('skips families already chosen and empty queries', () => {
    expect(searchFonts(catalogue, 'Open Sans', ['Open Sans']).some((f) => f.family === 'Open Sans')).toBe(
      false,
    );
    expect(searchFonts(catalogue, '  ')).toEqual([]);
  });

  it('starts a new font with the regular variant', () => {
    expect(
      newFont({ family: 'Roboto', category: 'sans-serif', variants: ['100', 'regular', '700'] }),
    ).toEqual({
      family: 'Roboto',
      variants: ['regular'],
    });
  });

  it('accepts only .woff2 custom fonts and image favicons', () => {
    expect(isWoff2('brand.woff2')).toBe(true);
    expect(isWoff2('brand.woff')).toBe(false);
    expect(isWoff2('brand.ttf')).toBe(false);
    expect(isFaviconFile('icon.ico')).toBe(true);
    expect(isFaviconFile('icon.SVG')).toBe(true);
    expect(isFaviconFile('icon.gif')).toBe(false);
  });
});
