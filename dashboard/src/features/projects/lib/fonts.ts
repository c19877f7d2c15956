/** Font picker helpers over the catalogue shipped with the app (scripts/build-fonts-catalogue.mjs). */
import type { Font } from '@/lib/types';

export interface CatalogueFont {
  family: string;
  category: string;
  variants: string[];
}

export const defaultFontFamily = 'Open Sans';
/** Spec: the font picker shows at most 10 matches. */
export const maxFontMatches = 10;
/** Weights offered for a custom font; a new font starts with "regular". */
export const customFontWeights = ['100', '200', '300', 'regular', '500', '600', '700', '800', '900'] as const;

/** Up to 10 families containing the query (case-insensitive), prefix matches first. */
export function searchFonts(
  catalogue: readonly CatalogueFont[],
  query: string,
  exclude: readonly string[] = [],
): CatalogueFont[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [];
  const excluded = new Set(exclude);
  const matches = catalogue.filter(
    (font) => !excluded.has(font.family) && font.family.toLowerCase().includes(needle),
  );
  const starts = matches.filter((font) => font.family.toLowerCase().startsWith(needle));
  const rest = matches.filter((font) => !font.family.toLowerCase().startsWith(needle));
  return [...starts, ...rest].slice(0, maxFontMatches);
}

/** A font as stored in project meta; new fonts start with the "regular" variant. */
export function newFont(font: CatalogueFont): Font {
  return {
    family: font.family,
    variants: font.variants.includes('regular') ? ['regular'] : font.variants.slice(0, 1),
  };
}

/** Only .woff2 files are accepted as custom fonts. */
export function isWoff2(fileName: string): boolean {
  return /\.woff2$/i.test(fileName);
}

/** Favicons may be png, jpg, ico or svg. */
export function isFaviconFile(fileName: string): boolean {
  return /\.(png|jpe?g|ico|svg)$/i.test(fileName);
}
