import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import en from './en.json';
import ptBR from './pt-BR.json';

/**
 * Every translation key the code names literally exists in both catalogues: `t('…')`,
 * `i18nKey="…"` and the `validation.*` messages of the zod schemas. Keys built at run time
 * (template strings) are not seen here.
 */
type Tree = { [key: string]: string | Tree };

const srcDir = fileURLToPath(new URL('..', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) &&
      !/\.test\.tsx?$/.test(entry.name) &&
      !entry.name.endsWith('.d.ts')
      ? [path]
      : [];
  });
}

const patterns = [
  /\bt\(\s*'([^'\n]+)'/g,
  /\bt\(\s*"([^"\n]+)"/g,
  /\bi18nKey=["']([^"'\n]+)["']/g,
  /\bi18nKey=\{\s*'([^'\n]+)'\s*\}/g,
  /['"](validation\.[A-Za-z0-9_.]+)['"]/g,
];

/** The literal keys used in `source`. */
export function usedKeys(source: string): string[] {
  return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1] ?? ''));
}

/** A key is defined when it names a string, or a plural family (`key_one`, `key_other`…). */
function defines(tree: Tree, key: string): boolean {
  const parts = key.split('.');
  const last = parts.pop() ?? '';
  let node: string | Tree | undefined = tree;
  for (const part of parts) {
    if (typeof node !== 'object') return false;
    node = node[part];
  }
  if (typeof node !== 'object') return false;
  return typeof node[last] === 'string' || typeof node[`${last}_other`] === 'string';
}

const uses = sourceFiles(srcDir).flatMap((file) =>
  usedKeys(readFileSync(file, 'utf8')).map((key) => ({ key, file: relative(srcDir, file) })),
);

describe('translation keys used in the code', () => {
  it('finds the keys of t(), i18nKey and validation messages', () => {
    expect(
      usedKeys(`t('a.b'); i18n.t("c.d", { n }); <Trans i18nKey="e.f" />; min(1, 'validation.x')`),
    ).toEqual(['a.b', 'c.d', 'e.f', 'validation.x']);
    expect(usedKeys('t(`a.${b}`); format(x)')).toEqual([]);
    // The scan reaches the sources: the schemas' messages and the dialogs' texts are among them.
    expect(uses.map((use) => use.key)).toEqual(
      expect.arrayContaining(['validation.projectNameRequired', 'common.save']),
    );
  });

  it.each([
    ['pt-BR', ptBR],
    ['en', en],
  ] as const)('are all defined in %s', (_name, catalogue) => {
    const missing = uses
      .filter(({ key }) => !defines(catalogue as Tree, key))
      .map(({ key, file }) => `${key} (${file})`);
    expect([...new Set(missing)]).toEqual([]);
  });
});
