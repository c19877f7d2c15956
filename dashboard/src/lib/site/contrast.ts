/**
 * WCAG 2 contrast, as the server computes it for the theme (issue 41's contract): the relative
 * luminance of sRGB colours, their contrast ratio, the "on" colour a filled button gets
 * (#ffffff or #111111, whichever contrasts more) and the AA thresholds of each theme pair, so the
 * identity screen warns while the colours are chosen, before the server's warnings after a save.
 */
import type { ThemeWarning } from './identity';

/** AA for normal text: text on the background, and the label on a primary button. */
export const AA_TEXT = 4.5;
/** AA for large text and interface parts: the accent is used for those. */
export const AA_LARGE = 3;

export const THRESHOLDS = { text: AA_TEXT, primary: AA_TEXT, accent: AA_LARGE } as const;

const SHORT = /^#?([0-9a-f])([0-9a-f])([0-9a-f])$/i;
const LONG = /^#?([0-9a-f]{6})$/i;

/** `#rrggbb` in lower case from `#rgb`, `#rrggbb` (the `#` optional), else null. */
export function normalizeHex(value: string): string | null {
  const text = value.trim();
  const short = SHORT.exec(text);
  if (short)
    return `#${short
      .slice(1, 4)
      .map((digit) => digit + digit)
      .join('')}`.toLowerCase();
  const long = LONG.exec(text);
  return long ? `#${long[1]}`.toLowerCase() : null;
}

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance, 0 (black) to 1 (white); null for what is not a colour. */
export function relativeLuminance(color: string): number | null {
  const hex = normalizeHex(color);
  if (!hex) return null;
  const [r, g, b] = [1, 3, 5].map((start) => channel(parseInt(hex.slice(start, start + 2), 16)));
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

/** (L1 + 0.05) / (L2 + 0.05), the lighter first: 1 to 21; null when either is not a colour. */
export function contrastRatio(a: string, b: string): number | null {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  if (la === null || lb === null) return null;
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** The text colour of a filled surface: white or near-black, whichever contrasts more. */
export function onColor(color: string): '#ffffff' | '#111111' {
  return (contrastRatio(color, '#ffffff') ?? 0) >= (contrastRatio(color, '#111111') ?? 0)
    ? '#ffffff'
    : '#111111';
}

export interface ThemeContrast {
  text: number | null;
  primary: number | null;
  accent: number | null;
  warnings: ThemeWarning[];
}

/** The contract's three pairs and the warning of each one below its threshold. */
export function themeContrast(theme: {
  primary: string;
  accent: string;
  background: string;
  text: string;
}): ThemeContrast {
  const text = contrastRatio(theme.text, theme.background);
  const primary = contrastRatio(theme.primary, onColor(theme.primary));
  const accent = contrastRatio(theme.accent, onColor(theme.accent));
  const ratios = { text, primary, accent };
  const warnings = (Object.keys(THRESHOLDS) as (keyof typeof THRESHOLDS)[])
    .filter((pair) => {
      const ratio = ratios[pair];
      return ratio !== null && ratio < THRESHOLDS[pair];
    })
    .map((pair): ThemeWarning => `low_contrast_${pair}`);
  return { ...ratios, warnings };
}
