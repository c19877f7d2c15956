/**
 * Reading variable values (docs/blocks.md "Variable types and value shapes") whatever the
 * template's author wrote as a default: each reader returns the documented shape, filling
 * what is missing, so the Block tab's editors never see a malformed value.
 */
import type {
  BackgroundValue,
  BlockVar,
  ImageValue,
  LinkValue,
  PaddingValue,
  UnitValue,
} from '@/features/pages/types';

type Loose = Record<string, unknown>;

function record(value: unknown): Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Loose) : {};
}

function str(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : fallback;
}

function num(value: unknown, fallback: number): number {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value)
        : Number.NaN;
  return Number.isFinite(n) ? n : fallback;
}

export const HEADING_TAGS = [
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'div',
  'p',
  'strong',
  'em',
  'del',
  'ins',
] as const;
export const UNITS = ['auto', 'px', 'em', '%'] as const;
export const GRADIENT_ANGLES = [90, 180, 45, 135] as const;
export const BACKGROUND_TYPES = ['solid', 'gradient', 'image'] as const;
export const POSITIONS = [
  'top left',
  'top center',
  'top right',
  'center left',
  'center center',
  'center right',
  'bottom left',
  'bottom center',
  'bottom right',
] as const;

export function asText(value: unknown): string {
  return str(value);
}

export function asImage(value: unknown): ImageValue {
  if (typeof value === 'string') return { src: value, alt: '' };
  const v = record(value);
  return { src: str(v.src), alt: str(v.alt) };
}

export function asLink(value: unknown): LinkValue {
  if (typeof value === 'string') return { href: value, label: '', target: '_self' };
  const v = record(value);
  return { href: str(v.href), label: str(v.label), target: v.target === '_blank' ? '_blank' : '_self' };
}

export function asColor(value: unknown): string {
  const v = str(value);
  return /^#[0-9a-fA-F]{6}$/.test(v) ? v.toLowerCase() : '#000000';
}

export function asBackground(value: unknown): BackgroundValue {
  const v = record(value);
  const type = BACKGROUND_TYPES.find((t) => t === v.type) ?? 'solid';
  const angle = GRADIENT_ANGLES.find((a) => a === num(v.angle, 90)) ?? 90;
  const position = POSITIONS.find((p) => p === v.position) ?? 'center center';
  return {
    type,
    color: asColor(v.color ?? '#ffffff'),
    color2: asColor(v.color2 ?? '#000000'),
    angle,
    image: str(v.image),
    position,
  };
}

export function asUnit(value: unknown): UnitValue {
  const v = record(value);
  const unit = UNITS.find((u) => u === v.unit) ?? 'px';
  const n = v.value === null || v.value === undefined || v.value === '' ? null : num(v.value, 0);
  return { value: unit === 'auto' ? null : n, unit };
}

export function asHeading(value: unknown): string {
  return HEADING_TAGS.find((tag) => tag === value) ?? 'div';
}

export function asPadding(value: unknown): PaddingValue {
  const v = record(value);
  const side = (key: string) => Math.max(0, num(v[key], 0));
  return { top: side('top'), right: side('right'), bottom: side('bottom'), left: side('left') };
}

/** 0 to 1 in steps of 0.1. */
export function asOpacity(value: unknown): number {
  const n = Math.min(1, Math.max(0, num(value, 1)));
  return Math.round(n * 10) / 10;
}

export function asNumber(value: unknown, fallback = 0): number {
  return num(value, fallback);
}

export function asBool(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true';
}

export function asItems(value: unknown): Loose[] {
  return Array.isArray(value) ? value.map(record) : [];
}

/** A new list item or table row: each sub-definition's default value. */
export function newItem(vars: BlockVar[] | undefined): Loose {
  return Object.fromEntries((vars ?? []).map((v) => [v.name, structuredClone(v.value ?? '')]));
}

/** "manual", "db" or "api" and the rest of the source string. */
export function readSource(source: string | undefined): { kind: 'manual' | 'db' | 'api'; target: string } {
  if (source?.startsWith('db:')) return { kind: 'db', target: source.slice(3) };
  if (source?.startsWith('api:')) return { kind: 'api', target: source.slice(4) };
  return { kind: 'manual', target: '' };
}

export function writeSource(kind: 'manual' | 'db' | 'api', target: string): string {
  return kind === 'manual' ? 'manual' : `${kind}:${target}`;
}

/** At most this many records come from an external source (spec §9). */
export const MAX_EXTERNAL_RECORDS = 100;

/**
 * The records of an API source's answer (docs/blocks.md: a JSON array, or an object whose
 * `data` is one), at most 100, and the dotted paths found in the first record (for sourceMap).
 */
export function apiRecords(answer: unknown): { records: unknown[]; paths: string[] } | null {
  const list = Array.isArray(answer)
    ? answer
    : Array.isArray(record(answer).data)
      ? (record(answer).data as unknown[])
      : null;
  if (!list) return null;
  const records = list.slice(0, MAX_EXTERNAL_RECORDS);
  const paths: string[] = [];
  const walk = (value: unknown, prefix: string, depth: number) => {
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && depth < 3) {
      Object.entries(value).forEach(([key, inner]) =>
        walk(inner, prefix ? `${prefix}.${key}` : key, depth + 1),
      );
    } else if (prefix) {
      paths.push(prefix);
    }
  };
  walk(records[0], '', 0);
  return { records, paths };
}
