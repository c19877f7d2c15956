/**
 * The language check of the screens walk (e2e/screens.e2e.ts, unit-tested in language-check.test.ts): a screen shown in one language
 * must show no text that only the other language's catalogue has, and no raw i18next key.
 *
 * Built from the catalogues themselves, so it follows every key other changes add: a value that
 * is in `en.json` and nowhere in `pt-BR.json` is English-only, and the reverse. Values shorter
 * than MIN_LENGTH characters (of literal text) and values both catalogues share are ignored, as
 * the brief asks. A value with `{{placeholders}}` matches any text in their place. A match must
 * stand on word boundaries ("Page" is found in "Page 2", not in "Pages" or "Homepage").
 *
 * Text the test itself typed or the server seeded (project, page, record names, template and
 * block names, e-mail addresses…) is user content: the caller removes it before the check.
 */
import en from '@/locales/en.json';
import ptBR from '@/locales/pt-BR.json';

export type ScreenLanguage = 'pt-BR' | 'en';

const MIN_LENGTH = 4;

type Catalogue = { [key: string]: string | Catalogue };

function values(catalogue: Catalogue): string[] {
  return Object.values(catalogue).flatMap((value) => (typeof value === 'string' ? [value] : values(value)));
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const PLACEHOLDER = /\{\{[^}]*\}\}/g;
const WORD_CHAR = '[\\p{L}\\p{N}]';

interface Needle {
  value: string;
  pattern: RegExp;
}

function needle(value: string): Needle | null {
  const literal = value.replace(PLACEHOLDER, '').trim();
  if (literal.length < MIN_LENGTH) return null;
  // Line breaks and runs of spaces in the catalogue match any white space on screen.
  const body = value
    .split(PLACEHOLDER)
    .map((part) => escapeRegExp(part).replace(/\s+/g, '\\s+'))
    .join('.+?');
  return { value, pattern: new RegExp(`(?<!${WORD_CHAR})${body}(?!${WORD_CHAR})`, 'u') };
}

function onlyIn(own: Catalogue, other: Catalogue): Needle[] {
  const others = new Set(values(other));
  return [...new Set(values(own))]
    .filter((value) => !others.has(value))
    .map(needle)
    .filter((n): n is Needle => n !== null);
}

/**
 * Values both catalogues hold (the spec's literal messages among them): removed from the text
 * before the check, so an English word inside a shared sentence is not taken for a leak.
 */
const shared: RegExp[] = (() => {
  const english = new Set(values(en));
  return [...new Set(values(ptBR as Catalogue))]
    .filter((value) => english.has(value))
    .map(needle)
    .filter((n): n is Needle => n !== null)
    .sort((a, b) => b.value.length - a.value.length)
    .map((n) => new RegExp(n.pattern.source, 'gu'));
})();

/** For each screen language, the catalogue values that must not appear on it. */
const foreign: Record<ScreenLanguage, Needle[]> = {
  'pt-BR': onlyIn(en, ptBR),
  en: onlyIn(ptBR, en),
};

/** A raw key: one of the catalogue's top-level sections, a dot, and more key segments. */
const RAW_KEY = new RegExp(
  `(?<![\\p{L}\\p{N}@./:_-])(?:${Object.keys(en).map(escapeRegExp).join('|')})(?:\\.[A-Za-z0-9_-]+)+(?![\\p{L}\\p{N}@/:])`,
  'gu',
);

/** `text` where it stands as whole words: a page named "Post" is not removed from "Posts". */
function wholeWords(text: string): RegExp {
  const before = /^[\p{L}\p{N}]/u.test(text) ? `(?<!${WORD_CHAR})` : '';
  const after = /[\p{L}\p{N}]$/u.test(text) ? `(?!${WORD_CHAR})` : '';
  return new RegExp(`${before}${escapeRegExp(text)}${after}`, 'gu');
}

export interface LanguageFinding {
  kind: 'foreign' | 'raw-key';
  text: string;
}

/**
 * What is wrong with `text` (a screen's visible text) shown in `language`: values of the other
 * catalogue only, and raw keys. `userContent` is removed from the text first.
 */
export function languageFindings(
  text: string,
  language: ScreenLanguage,
  userContent: readonly string[],
): LanguageFinding[] {
  let visible = text;
  // Longest first, so a name that contains another is removed whole.
  for (const content of [...userContent]
    .filter((c) => c.trim().length > 0)
    .sort((a, b) => b.length - a.length))
    visible = visible.replace(wholeWords(content), ' ');
  for (const pattern of shared) visible = visible.replace(pattern, ' ');
  const findings: LanguageFinding[] = foreign[language]
    .filter((n) => n.pattern.test(visible))
    .map((n) => ({ kind: 'foreign' as const, text: n.value }));
  for (const match of visible.matchAll(RAW_KEY)) findings.push({ kind: 'raw-key', text: match[0] });
  return findings;
}
