/**
 * `x-vars` (docs/blocks.md): a library or My Blocks template carries its variable definitions as
 * a single-quoted JSON array attribute on its first element. Inserting a block moves them into
 * the block's `vars` and strips the attribute; the source-code modal puts them back for editing.
 * The reasons are the text after 'x-vars error: ' in the editor's alert.
 */
import type { BlockVar, VarType } from '@/features/pages/types';

const VAR_TYPES: readonly VarType[] = [
  'text',
  'textarea',
  'richtext',
  'image',
  'link',
  'color',
  'background',
  'unit',
  'heading',
  'padding',
  'opacity',
  'number',
  'select',
  'checkbox',
  'list',
  'table',
];
const RESERVED = new Set(['site', 'page', 'post']);
const NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

export type XVarsResult = { ok: true; template: string; vars: BlockVar[] } | { ok: false; reason: string };

interface StartTag {
  /** Index just after the tag name. */
  nameEnd: number;
  /** Index of the closing '>'. */
  end: number;
}

/** The first element's start tag, skipping leading whitespace, comments and a doctype. */
function firstStartTag(template: string): StartTag | null {
  const lead = /^(?:\s|<!--[\s\S]*?-->|<!doctype[^>]*>)*<([a-zA-Z][\w:-]*)/i.exec(template);
  if (!lead) return null;
  const nameEnd = lead[0].length;
  let quote: string | null = null;
  for (let i = nameEnd; i < template.length; i += 1) {
    const c = template[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '>') {
      return { nameEnd, end: i };
    }
  }
  return null;
}

const ATTRIBUTE = /\s+x-vars\s*=\s*'([^']*)'/;

function checkVars(value: unknown, where: string): string | null {
  if (!Array.isArray(value)) return `${where}: expected a JSON array`;
  const seen = new Set<string>();
  for (const [index, item] of value.entries()) {
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      return `${where}[${index}]: expected an object`;
    const record = item as Record<string, unknown>;
    const name = record.name;
    if (typeof name !== 'string' || !NAME.test(name))
      return `${where}[${index}]: invalid name ${JSON.stringify(name)}`;
    if (RESERVED.has(name)) return `${where}[${index}]: "${name}" is reserved`;
    if (seen.has(name)) return `${where}[${index}]: duplicate name "${name}"`;
    seen.add(name);
    if (typeof record.type !== 'string' || !VAR_TYPES.includes(record.type as VarType)) {
      return `${where}[${index}]: unknown type ${JSON.stringify(record.type)}`;
    }
    if (record.type === 'list' && record.vars !== undefined) {
      const nested = checkVars(record.vars, `${name}.vars`);
      if (nested) return nested;
    }
  }
  return null;
}

/** Reads and strips the definitions; a template without the attribute has none. */
export function extractXVars(template: string): XVarsResult {
  const tag = firstStartTag(template);
  if (!tag) return { ok: true, template, vars: [] };
  const head = template.slice(tag.nameEnd, tag.end);
  const match = ATTRIBUTE.exec(head);
  if (!match) {
    if (/\sx-vars\s*=/.test(head)) return { ok: false, reason: 'the attribute must be single-quoted' };
    return { ok: true, template, vars: [] };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(match[1] ?? '');
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
  const problem = checkVars(parsed, 'x-vars');
  if (problem) return { ok: false, reason: problem };
  const stripped = template.slice(0, tag.nameEnd) + head.replace(ATTRIBUTE, '') + template.slice(tag.end);
  return { ok: true, template: stripped, vars: parsed as BlockVar[] };
}

/** Puts definitions back on the first element (for the source-code modal); `'` becomes \u0027. */
export function injectXVars(template: string, vars: BlockVar[]): string {
  const tag = firstStartTag(template);
  if (!tag || vars.length === 0) return template;
  const json = JSON.stringify(vars).replace(/'/g, '\\u0027');
  return `${template.slice(0, tag.nameEnd)} x-vars='${json}'${template.slice(tag.nameEnd)}`;
}
