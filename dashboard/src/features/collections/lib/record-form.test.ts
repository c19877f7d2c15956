import { describe, expect, it } from 'vitest';
import type { Field, FieldType, Post } from '@/features/collections/types';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fieldErrors } from '@/lib/validation';
import {
  draftFromPost,
  draftFromValues,
  isEmptyValue,
  recordFormSchema,
  recordFormValues,
  toPostPayload,
  valueKey,
  type RecordFormValues,
} from './record-form';

const vectorsPath = fileURLToPath(new URL('../../../../../shared/testdata/validation.json', import.meta.url));
const vectors = JSON.parse(readFileSync(vectorsPath, 'utf8')) as { slug: [string, string][] };

let nextId = 1;
function field(type: FieldType, required: '1' | '0' = '0', name: string = type): Field {
  const id = nextId++;
  return { id, table_id: 1, name, slug: name, type, required, options: [], meta: {}, order: id };
}

const fields = {
  text: field('text'),
  textarea: field('textarea'),
  wysiwyg: field('wysiwyg'),
  gallery: field('gallery'),
  multiselect: field('multiselect'),
  checkbox: field('checkbox'),
  currency: field('currency'),
  whatsapp: field('whatsapp_link'),
  telephone: field('telephone_link'),
  email: field('email_link'),
  relation: field('relation'),
  csv: field('csvtable'),
};
const list = Object.values(fields);

const post: Post = {
  id: 9,
  table_id: 1,
  name: 'Casa azul',
  slug: 'casa-azul',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  fields: [
    { field_id: fields.text.id, value: 'Olá' },
    { field_id: fields.gallery.id, value: [{ src: '/files/a.png', caption: 'A' }] },
    { field_id: fields.multiselect.id, value: ['x', 'y'] },
    { field_id: fields.checkbox.id, value: 1 },
    { field_id: fields.currency.id, value: 12345 },
    { field_id: fields.whatsapp.id, value: 'https://wa.me/5511988887777' },
    { field_id: fields.telephone.id, value: 'tel:1133334444' },
    { field_id: fields.email.id, value: 'mailto:ana@example.com' },
    { field_id: fields.relation.id, value: 42 },
    { field_id: fields.csv.id, value: 'a,b' },
  ],
};

describe('draftFromPost', () => {
  it('turns the field list into a map of editor values', () => {
    const draft = draftFromPost(list, post);
    expect(draft.name).toBe('Casa azul');
    expect(draft.values[fields.text.id]).toBe('Olá');
    expect(draft.values[fields.textarea.id]).toBe('');
    expect(draft.values[fields.gallery.id]).toEqual([{ src: '/files/a.png', caption: 'A' }]);
    expect(draft.values[fields.checkbox.id]).toBe(true);
    expect(draft.values[fields.currency.id]).toBe(12345);
    expect(draft.values[fields.whatsapp.id]).toBe('5511988887777');
    expect(draft.values[fields.telephone.id]).toBe('1133334444');
    expect(draft.values[fields.email.id]).toBe('ana@example.com');
    expect(draft.values[fields.relation.id]).toBe(42);
  });

  it('starts a new record with empty values per type', () => {
    const draft = draftFromPost(list);
    expect(draft).toMatchObject({ name: '', slug: '' });
    expect(draft.values[fields.multiselect.id]).toEqual([]);
    expect(draft.values[fields.checkbox.id]).toBe(false);
    expect(draft.values[fields.currency.id]).toBeNull();
  });
});

describe('toPostPayload', () => {
  it('maps editor values to the stored shapes', () => {
    const draft = draftFromPost(list, post);
    draft.slug = ' Casa Azul! ';
    draft.values[fields.whatsapp.id] = '(11) 98888-7777';
    draft.values[fields.telephone.id] = '(11) 3333-4444';
    draft.values[fields.checkbox.id] = false;
    const payload = toPostPayload(list, draft);
    const value = (id: number) => payload.fields.find((entry) => entry.field_id === id)?.value;
    expect(payload.name).toBe('Casa azul');
    expect(payload.slug).toBe('casa-azul');
    expect(payload.fields).toHaveLength(list.length);
    expect(value(fields.whatsapp.id)).toBe('https://wa.me/5511988887777');
    expect(value(fields.telephone.id)).toBe('tel:1133334444');
    expect(value(fields.email.id)).toBe('mailto:ana@example.com');
    expect(value(fields.checkbox.id)).toBe(0);
    expect(value(fields.currency.id)).toBe(12345);
    expect(value(fields.relation.id)).toBe(42);
    expect(value(fields.gallery.id)).toEqual([{ src: '/files/a.png', caption: 'A' }]);
    expect(value(fields.multiselect.id)).toEqual(['x', 'y']);
    expect(value(fields.textarea.id)).toBe('');
  });
});

describe('recordFormSchema', () => {
  const required = [
    field('text', '1', 'Nome'),
    field('multiselect', '1', 'Tags'),
    field('checkbox', '1', 'Ativo'),
    field('currency', '1', 'Preço'),
  ];
  const problems = (values: RecordFormValues, includeTitle = true, hasSingular = true) => {
    const result = recordFormSchema(required, { includeTitle, hasSingular }).safeParse(values);
    return result.success ? {} : fieldErrors(result.error);
  };
  const key = (index: number) => valueKey(required[index] ?? required[0]!);

  it('puts an error at each required field that is empty, null or []', () => {
    expect(problems({ ...recordFormValues(required), name: 'x', slug: 'x' })).toEqual({
      [`values.${key(0)}`]: 'validation.fieldRequired',
      [`values.${key(1)}`]: 'validation.fieldRequired',
      [`values.${key(3)}`]: 'validation.fieldRequired',
    });
  });

  it('requires title and slug when the collection has them enabled', () => {
    const values = { name: ' ', slug: '!!!', values: {} };
    expect(
      recordFormSchema([], { includeTitle: true, hasSingular: true }).safeParse(values).error?.issues,
    ).toEqual([
      expect.objectContaining({ path: ['name'], message: 'validation.titleRequired' }),
      expect.objectContaining({ path: ['slug'], message: 'validation.slugRequired' }),
    ]);
    expect(recordFormSchema([], { includeTitle: false, hasSingular: false }).safeParse(values).success).toBe(
      true,
    );
  });

  it.each(vectors.slug)('takes the slug %j (stored as %j) as the server does', (slug, stored) => {
    const result = recordFormSchema([], { includeTitle: false, hasSingular: true }).safeParse({
      name: '',
      slug,
      values: {},
    });
    expect(result.success).toBe(stored !== '');
    expect(toPostPayload([], { name: '', slug, values: {} }).slug).toBe(stored);
  });

  it('is satisfied once every required value is filled, and keeps the values for the payload', () => {
    const values: RecordFormValues = {
      name: 'x',
      slug: 'x',
      values: { [key(0)]: 'Ana', [key(1)]: ['a'], [key(2)]: false, [key(3)]: 0 },
    };
    expect(problems(values)).toEqual({});
    expect(toPostPayload(required, draftFromValues(required, values)).fields.map((f) => f.value)).toEqual([
      'Ana',
      ['a'],
      0,
      0,
    ]);
  });

  it('counts "", null, undefined and [] as empty', () => {
    expect([undefined, null, '', '  ', []].every(isEmptyValue)).toBe(true);
    expect([0, 'a', ['a'], false].some(isEmptyValue)).toBe(false);
  });
});
