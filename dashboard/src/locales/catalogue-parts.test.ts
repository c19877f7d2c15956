/**
 * The catalogue's core (parts.ts) holds what the sign-in screens and the app's frame ask for:
 * they render with only the core loaded (lib/i18n.ts), so a key of theirs outside it would show
 * as a raw key. Their code is every module that main.tsx and the sign-in screens import
 * statically, followed from file to file (dynamic imports load later, with the rest).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import core from 'virtual:catalogue/pt-BR/core';
import rest from 'virtual:catalogue/pt-BR/rest';
import enCore from 'virtual:catalogue/en/core';
import en from './en.json';
import { cataloguePart, coreSections } from './parts';
import ptBR from './pt-BR.json';

const SRC = join(__dirname, '..');
const signInStart = [
  'main.tsx',
  'features/auth/routes/LoginRoute.tsx',
  'features/auth/routes/ForgotRoute.tsx',
  'features/auth/routes/NewPasswordRoute.tsx',
  'features/auth/routes/LogoutRoute.tsx',
];

function resolveImport(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith('@/')) base = join(SRC, specifier.slice(2));
  else if (specifier.startsWith('.')) base = join(dirname(from), specifier);
  else return null;
  return (
    ['', '.ts', '.tsx', '/index.ts']
      .map((ext) => base + ext)
      .find((path) => /\.tsx?$/.test(path) && existsSync(path)) ?? null
  );
}

/** The files `start` imports statically (type-only imports left out), recursively, with their text. */
function staticClosure(start: string[]): Map<string, string> {
  const files = new Map<string, string>();
  const visit = (path: string) => {
    if (files.has(path)) return;
    const text = readFileSync(path, 'utf8');
    files.set(path, text);
    for (const match of text.matchAll(
      /^(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm,
    )) {
      const target = resolveImport(path, match[1] as string);
      if (target) visit(target);
    }
  };
  for (const file of start) visit(join(SRC, file));
  return files;
}

const sections = new Set(Object.keys(ptBR));

/** The catalogue sections a file's code names: `t('a.b')`, `'a.b'` literals, `` `a.${x}` `` prefixes. */
function sectionsUsed(text: string): string[] {
  const names = [
    ...[...text.matchAll(/(['"`])([A-Za-z][\w-]*)\.[\w.-]+\1/g)].map((match) => match[2] as string),
    ...[...text.matchAll(/`([A-Za-z][\w-]*)\.(?:[\w-]+\.)*\$\{/g)].map((match) => match[1] as string),
  ];
  return names.filter((name) => sections.has(name));
}

describe('catalogue parts', () => {
  it('the sign-in screens and the frame ask only for sections of the core', () => {
    const files = staticClosure(signInStart);
    expect(files.size).toBeGreaterThan(20);
    expect([...files.keys()].map((path) => relative(SRC, path))).toContain('app/Layout.tsx');
    const outside = [...files].flatMap(([path, text]) =>
      sectionsUsed(text)
        .filter((section) => !coreSections.includes(section))
        .map((section) => `${relative(SRC, path)}: ${section}`),
    );
    expect(outside).toEqual([]);
  });

  it('finds a section outside the core when a file names one', () => {
    expect(sectionsUsed("t('editor.topbar.saving'); t(`errors.${code}`)")).toEqual(['editor', 'errors']);
  });

  it('splits each catalogue into the core and the rest, with nothing lost', () => {
    expect(Object.keys(core).sort()).toEqual([...coreSections].sort());
    expect(core).toEqual(cataloguePart(ptBR, 'core'));
    expect(enCore).toEqual(cataloguePart(en, 'core'));
    expect({ ...core, ...rest }).toEqual(ptBR);
    expect(Object.keys(rest).filter((section) => coreSections.includes(section))).toEqual([]);
  });
});
