import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fieldErrors } from '@/lib/validation';
import { DEFAULT_TABLE_META } from '@/features/collections/types';
import { fieldFormSchema, fieldFormValues, tableFormSchema, type FieldFormValues } from './schemas';

const vectorsPath = fileURLToPath(new URL('../../../../../shared/testdata/validation.json', import.meta.url));
const vectors = JSON.parse(readFileSync(vectorsPath, 'utf8')) as { slug: [string, string][] };

const problems = (result: { success: boolean; error?: Parameters<typeof fieldErrors>[0] }) =>
  result.success || !result.error ? {} : fieldErrors(result.error);

describe('tableFormSchema', () => {
  it('requires name, plural and singular', () => {
    expect(
      problems(tableFormSchema.safeParse({ name: ' ', slug: '', meta: { ...DEFAULT_TABLE_META } })),
    ).toEqual({
      name: 'collections.validation.nameRequired',
      'meta.plural': 'collections.validation.pluralRequired',
      'meta.singular': 'collections.validation.singularRequired',
    });
  });

  it.each(vectors.slug)('stores the slug %j as %j, as the server does', (slug, stored) => {
    const meta = { ...DEFAULT_TABLE_META, plural: 'Casas', singular: 'Casa' };
    const result = tableFormSchema.safeParse({ name: 'Casa', slug, meta });
    // An empty input takes the name's slug; one that normalises to nothing is refused.
    if (slug.trim() === '') expect(result.data?.slug).toBe('casa');
    else if (stored === '') expect(problems(result)).toEqual({ slug: 'validation.slugRequired' });
    else expect(result.data?.slug).toBe(stored);
  });

  it('takes the slug from the name when none is typed', () => {
    const meta = { ...DEFAULT_TABLE_META, plural: 'Imóveis', singular: 'Imóvel' };
    expect(tableFormSchema.parse({ name: 'Imóveis', slug: '', meta }).slug).toBe('imoveis');
  });
});

describe('fieldFormSchema', () => {
  const base: FieldFormValues = { ...fieldFormValues(undefined), name: 'Autor', type: 'relation' };

  it('requires a relation target for relation fields', () => {
    expect(problems(fieldFormSchema.safeParse(base))).toEqual({
      table: 'collections.validation.relationRequired',
    });
    expect(fieldFormSchema.parse({ ...base, table: '3' })).toMatchObject({
      slug: 'autor',
      type: 'relation',
      required: '0',
      meta: { table: 3 },
    });
  });

  it('requires name and type', () => {
    expect(problems(fieldFormSchema.safeParse({ ...base, name: '', type: '' }))).toEqual({
      name: 'collections.validation.nameRequired',
      type: 'collections.validation.typeRequired',
    });
  });

  it('refuses a reserved slug, options missing or repeated, a long symbol and a long delimiter', () => {
    expect(problems(fieldFormSchema.safeParse({ ...base, table: '3', slug: 'created_at' }))).toEqual({
      slug: 'validation.fieldSlugReserved',
    });
    const select = { ...base, type: 'select' as const };
    expect(problems(fieldFormSchema.safeParse({ ...select, options: [{ name: ' ', image: '' }] }))).toEqual({
      options: 'validation.optionsRequired',
    });
    expect(
      problems(
        fieldFormSchema.safeParse({
          ...select,
          options: [
            { name: 'A', image: '' },
            { name: 'A ', image: '' },
          ],
        }),
      ),
    ).toEqual({ options: 'validation.optionRepeated|{"name":"A"}' });
    expect(problems(fieldFormSchema.safeParse({ ...base, type: 'currency', symbol: 'R$R$R$R$R' }))).toEqual({
      symbol: 'validation.tooLong|{"max":8}',
    });
    expect(problems(fieldFormSchema.safeParse({ ...base, type: 'csvtable', delimiter: ';;' }))).toEqual({
      delimiter: 'validation.delimiterOneCharacter',
    });
  });

  it('sends only the settings of the chosen type, and only named options', () => {
    const body = fieldFormSchema.parse({
      ...base,
      type: 'image-select',
      required: true,
      options: [
        { name: ' Azul ', image: '/files/a.png' },
        { name: '', image: '' },
      ],
      table: '3',
    });
    expect(body).toEqual({
      name: 'Autor',
      slug: 'autor',
      type: 'image-select',
      required: '1',
      options: [{ name: 'Azul', image: '/files/a.png' }],
      meta: {},
    });
  });
});
