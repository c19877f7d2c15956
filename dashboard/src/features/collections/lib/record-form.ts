/**
 * The record form's state and its mapping to and from the API. Posts arrive with fields as a
 * list of {field_id, value}; the form keeps one editor value per field id (spec §3) and maps
 * them back to the stored shape of each type when saving.
 */
import { z } from 'zod';
import { toCents } from '@/lib/currency';
import { slugify } from '@/lib/validation';
import type { Field, FieldType, FileItem, Post, PostFieldValue } from '@/features/collections/types';
import {
  emailDisplay,
  emailLink,
  telephoneDisplay,
  telephoneLink,
  whatsappDisplay,
  whatsappLink,
} from './links';

/** What an editor holds: text, cents, a checkbox, a relation id, a list of options or files. */
export type FormValue = string | number | boolean | null | string[] | FileItem[];
export type FormValues = Record<number, FormValue>;

export interface RecordDraft {
  name: string;
  slug: string;
  values: FormValues;
}

export interface PostPayload {
  name: string;
  slug: string;
  fields: PostFieldValue[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

function asFileItems(value: unknown): FileItem[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item): FileItem[] => {
    if (typeof item === 'string') return item ? [{ src: item, caption: '' }] : [];
    if (isRecord(item) && typeof item.src === 'string') {
      return [{ src: item.src, caption: typeof item.caption === 'string' ? item.caption : '' }];
    }
    return [];
  });
}

function asStrings(value: unknown): string[] {
  if (!Array.isArray(value)) return typeof value === 'string' && value !== '' ? [value] : [];
  return value.filter((item): item is string => typeof item === 'string');
}

function asChecked(value: unknown): boolean {
  return value === 1 || value === true || value === '1' || value === 'true';
}

function asId(value: unknown): number | null {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return null;
}

/** The empty editor value of a type. */
export function emptyValue(type: FieldType): FormValue {
  switch (type) {
    case 'gallery':
    case 'multiple-file':
    case 'multiselect':
      return [];
    case 'checkbox':
      return false;
    case 'currency':
    case 'relation':
      return null;
    default:
      return '';
  }
}

/** A stored value as the editor of its type shows it. */
export function toFormValue(type: FieldType, stored: unknown): FormValue {
  if (stored === undefined || stored === null) return emptyValue(type);
  switch (type) {
    case 'gallery':
    case 'multiple-file':
      return asFileItems(stored);
    case 'multiselect':
      return asStrings(stored);
    case 'checkbox':
      return asChecked(stored);
    case 'currency':
      return toCents(stored);
    case 'relation':
      return asId(stored);
    case 'whatsapp_link':
      return whatsappDisplay(stored);
    case 'telephone_link':
      return telephoneDisplay(stored);
    case 'email_link':
      return emailDisplay(stored);
    default:
      return asText(stored);
  }
}

/** An editor value in the stored shape of its type (what the API receives). */
export function toStoredValue(type: FieldType, value: FormValue | undefined): unknown {
  switch (type) {
    case 'gallery':
    case 'multiple-file':
      return asFileItems(value).map((item) => ({ src: item.src, caption: item.caption }));
    case 'multiselect':
      return asStrings(value);
    case 'checkbox':
      return asChecked(value) ? 1 : 0;
    case 'currency':
      return toCents(value);
    case 'relation':
      return asId(value);
    case 'whatsapp_link':
      return whatsappLink(asText(value));
    case 'telephone_link':
      return telephoneLink(asText(value));
    case 'email_link':
      return emailLink(asText(value));
    default:
      return asText(value);
  }
}

/** The form state of a post (or of a new record when there is none). */
export function draftFromPost(fields: Field[], post?: Post): RecordDraft {
  const stored = new Map<number, unknown>((post?.fields ?? []).map((entry) => [entry.field_id, entry.value]));
  const values: FormValues = {};
  for (const field of fields) values[field.id] = toFormValue(field.type, stored.get(field.id));
  return { name: post?.name ?? '', slug: post?.slug ?? '', values };
}

/** Body of POST /api/posts and /api/posts/{id}; the slug is normalised like every slug. */
export function toPostPayload(fields: Field[], draft: RecordDraft): PostPayload {
  return {
    name: draft.name.trim(),
    slug: slugify(draft.slug),
    fields: fields.map((field) => ({
      field_id: field.id,
      value: toStoredValue(field.type, draft.values[field.id]),
    })),
  };
}

/** Empty as the spec counts it: '', null, undefined or []. */
export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

/** The form's key of a field's value: `f{id}` (a bare number would read as an array index). */
export function valueKey(field: Pick<Field, 'id'>): string {
  return `f${field.id}`;
}

/** The record form's values, as react-hook-form holds them. */
export interface RecordFormValues {
  name: string;
  slug: string;
  values: Record<string, FormValue>;
}

export function recordFormValues(fields: Field[], post?: Post): RecordFormValues {
  const draft = draftFromPost(fields, post);
  return {
    name: draft.name,
    slug: draft.slug,
    values: Object.fromEntries(fields.map((field) => [valueKey(field), draft.values[field.id] ?? null])),
  };
}

/**
 * The record form's schema, built from the collection's fields: the title and slug are required
 * when the collection has them, and so is every field marked required ('1'), empty counted as
 * the spec counts it (see `isEmptyValue`, after the value takes its stored shape). Each error is
 * at its field; the server applies the same rule (shared/src/fields/mod.rs).
 */
export function recordFormSchema(
  fields: Field[],
  { includeTitle, hasSingular }: { includeTitle: boolean; hasSingular: boolean },
) {
  return z
    .object({
      name: z.string(),
      slug: z.string(),
      values: z.record(z.string(), z.custom<FormValue>()),
    })
    .superRefine((value, ctx) => {
      if (includeTitle && value.name.trim() === '')
        ctx.addIssue({ code: 'custom', path: ['name'], message: 'validation.titleRequired' });
      if (hasSingular && slugify(value.slug) === '')
        ctx.addIssue({ code: 'custom', path: ['slug'], message: 'validation.slugRequired' });
      for (const field of fields) {
        if (field.required !== '1') continue;
        const key = valueKey(field);
        if (isEmptyValue(toStoredValue(field.type, value.values[key])))
          ctx.addIssue({ code: 'custom', path: ['values', key], message: 'validation.fieldRequired' });
      }
    });
}

/** The draft of the form's values, for `toPostPayload`. */
export function draftFromValues(fields: Field[], values: RecordFormValues): RecordDraft {
  const byId: FormValues = {};
  for (const field of fields) {
    const value = values.values[valueKey(field)];
    if (value !== undefined) byId[field.id] = value;
  }
  return { name: values.name, slug: values.slug, values: byId };
}
