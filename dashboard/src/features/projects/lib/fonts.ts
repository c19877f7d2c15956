/** Font picker helpers over the catalogue shipped with the app (scripts/build-fonts-catalogue.mjs). */
import type { Font } from '@/lib/types';
import { z } from 'zod';

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

/** UTF-8 bytes of a text, as the server's `len()` counts. */
const byteLength = (value: string) => new TextEncoder().encode(value).length;

/** The first file of a file input's value (a `FileList`), if any. */
function firstFile(value: unknown): File | undefined {
  if (typeof value !== 'object' || value === null || !('length' in value)) return undefined;
  const first = (value as ArrayLike<unknown>)[0];
  return first instanceof File ? first : undefined;
}

/**
 * The custom font form: a family the server's `check_family` accepts (letters, digits, space,
 * `-`, `_`; at most 100 bytes), one weight, and a .woff2 file (the upload's `accept: 'font'`).
 */
export const customFontSchema = z.object({
  family: z
    .string()
    .trim()
    .min(1, 'validation.fontFamilyRequired')
    .refine(
      (value) => byteLength(value) <= 100 && /^[\p{L}\p{N} _-]+$/u.test(value),
      'validation.fontFamilyInvalid',
    ),
  weight: z.enum(customFontWeights),
  file: z.unknown().transform((value, ctx) => {
    const file = firstFile(value);
    if (!file) {
      ctx.addIssue({ code: 'custom', message: 'validation.fontFileRequired' });
      return z.NEVER;
    }
    if (!isWoff2(file.name)) {
      ctx.addIssue({ code: 'custom', message: 'validation.woff2Only' });
      return z.NEVER;
    }
    return file;
  }),
});
export type CustomFontValues = z.output<typeof customFontSchema>;
