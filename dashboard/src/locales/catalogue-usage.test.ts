/**
 * The catalogues and the code agree: every key the code asks for exists, and every key the
 * catalogues hold is used somewhere (a key nothing uses any more is dead text that translators
 * would keep paying for, and hides that a screen lost a message).
 *
 * What counts as a use, read from the source (tests left out):
 * - the key written whole in quotes or backticks: `t('records.deleted')`, `{ label: 'common.save' }`;
 * - a key under a prefix the code completes at run time: `` t(`redirects.orders.${order}`) `` uses
 *   every `redirects.orders.*` key;
 * - a plural form (`_one`, `_other`, …) is used when its base key is.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import en from './en.json';
import ptBR from './pt-BR.json';

type Tree = { [key: string]: string | Tree };

const SRC = join(__dirname, '..');
const PLURAL = /_(zero|one|two|few|many|other)$/;

/** Every path of a catalogue: its texts and the groups holding them. */
function paths(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string'
      ? [`${prefix}${key}`]
      : [`${prefix}${key}`, ...paths(value, `${prefix}${key}.`)],
  );
}

function leaves(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : leaves(value, `${prefix}${key}.`),
  );
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.(test|spec)\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const files = sourceFiles(SRC).map((path) => ({
  path: relative(SRC, path),
  text: readFileSync(path, 'utf8'),
}));
const source = files.map((file) => file.text).join('\n');

/** Every string literal of the source that looks like a dotted key. */
const literals = new Set(
  [...source.matchAll(/(['"`])([A-Za-z][\w-]*(?:\.[\w-]+)+)\1/g)].map((match) => match[2] as string),
);

/** Prefixes completed at run time: `` `a.b.${x}` `` and `'a.b.' + x`. */
const dynamicPrefixes = [
  ...[...source.matchAll(/`([A-Za-z][\w-]*(?:\.[\w-]+)*\.)\$\{/g)].map((match) => match[1] as string),
  ...[...source.matchAll(/(['"])([A-Za-z][\w-]*(?:\.[\w-]+)*\.)\1\s*\+/g)].map((match) => match[2] as string),
];

const catalogueKeys = leaves(ptBR);

function isUsed(key: string): boolean {
  const base = key.replace(PLURAL, '');
  return literals.has(base) || dynamicPrefixes.some((prefix) => base.startsWith(prefix));
}

const namespaces = new Set(Object.keys(ptBR));

/**
 * Keys the code asks for, with the file asking: the first argument of `t(…)` written whole, and
 * any other literal in a catalogue's namespace (`'validation.emailRequired'` in a schema, a
 * label key in a table), which must name a text or a group of texts.
 */
const asked = files.flatMap((file) => [
  ...[...file.text.matchAll(/\bt\(\s*(['"])([A-Za-z][\w-]*(?:\.[\w-]+)+)\1/g)].map((match) => ({
    key: match[2] as string,
    file: file.path,
    call: true,
  })),
  ...[...file.text.matchAll(/(['"`])([A-Za-z][\w-]*(?:\.[\w-]+)+)\1/g)]
    .filter((match) => namespaces.has((match[2] as string).split('.')[0] as string))
    .map((match) => ({ key: match[2] as string, file: file.path, call: false })),
]);

describe('catalogue keys and the code', () => {
  it('reads the source it checks', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(asked.length).toBeGreaterThan(200);
    // The scanner itself: a literal key, a run-time prefix and a plural form are recognised.
    expect(literals.has('common.delete')).toBe(true);
    expect(dynamicPrefixes).toContain('redirects.orders.');
    expect(isUsed('forms.table.selected_other')).toBe(true);
  });

  it('has every key the code asks for, in both languages', () => {
    const texts = (tree: Tree) => new Set(leaves(tree).map((key) => key.replace(PLURAL, '')));
    const groups = (tree: Tree) => new Set(paths(tree).map((key) => key.replace(PLURAL, '')));
    const [ptTexts, enTexts, ptAll, enAll] = [texts(ptBR), texts(en), groups(ptBR), groups(en)];
    const missing = asked.filter(({ key, call }) =>
      call ? !ptTexts.has(key) || !enTexts.has(key) : !ptAll.has(key) || !enAll.has(key),
    );
    expect(missing).toEqual([]);
  });

  it('holds no key that no code uses', () => {
    expect(catalogueKeys.filter((key) => !isUsed(key))).toEqual([]);
  });
});
