/**
 * No import circle under src/features/pages (issue 43: the value editors once imported each other;
 * now `fields/registry.ts` is the one module that knows them all). The graph is read from the
 * sources with regular expressions: every static import and re-export at the start of a line
 * (type-only ones too) and every dynamic `import('…')`, resolved like tsconfig's `@/` alias and
 * relative paths; packages are left out. The whole of src/ is walked, so a circle that leaves
 * the feature and comes back is found too.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../..');
const FEATURE = resolve(import.meta.dirname);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

const STATIC = /^\s*(?:import|export)\b[^;]*?\bfrom\s+['"]([^'"]+)['"]/gm;
const BARE = /^\s*import\s+['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The specifiers a module imports. */
export function importsOf(code: string): string[] {
  return [STATIC, BARE, DYNAMIC].flatMap((pattern) => [...code.matchAll(pattern)].map((match) => match[1]!));
}

function resolveImport(from: string, specifier: string, files: ReadonlySet<string>): string | null {
  let base: string;
  if (specifier.startsWith('@/')) base = join(SRC, specifier.slice(2));
  else if (specifier.startsWith('.')) base = resolve(dirname(from), specifier);
  else return null;
  const candidates = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'].map((ending) => base + ending);
  return candidates.find((path) => files.has(path)) ?? null;
}

/** The strongly connected components of more than one module, or of one that imports itself (Tarjan). */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('imports under src/features/pages', () => {
  it('reads static, type-only, re-exported and dynamic imports, and finds circles', () => {
    const code = [
      "import { a } from '@/x';",
      "import type {\n  B,\n} from './b';",
      "export { c } from '../c';",
      "import './side-effect.css';",
      "const Lazy = lazy(() => import('./lazy'));",
      " * a comment that mentions import { z } from 'nowhere'",
      "const url = 'https://example.com'; // from 'there'",
    ].join('\n');
    expect(importsOf(code).sort()).toEqual(['../c', './b', './lazy', './side-effect.css', '@/x']);
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['d']],
      ['e', ['a']],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c'], ['d']]);
  });

  it('form no circle', () => {
    const files = sourceFiles(SRC);
    const known = new Set(files);
    const graph = new Map(
      files.map((file) => [
        file,
        importsOf(readFileSync(file, 'utf8'))
          .map((specifier) => resolveImport(file, specifier, known))
          .filter((path): path is string => path !== null),
      ]),
    );
    const inFeature = cycles(graph)
      .filter((component) => component.some((file) => file.startsWith(FEATURE)))
      .map((component) => component.map((file) => relative(SRC, file)));
    expect(inFeature).toEqual([]);
  });
});
