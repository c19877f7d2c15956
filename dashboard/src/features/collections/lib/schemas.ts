/**
 * Form schemas of the collection editor and the field modal, mirroring the server's checks in
 * control-plane/src/routes/collections.rs ('Name is required', 'Plural is required', 'Singular
 * is required', 'Type is required', 'The relation collection is required', options named and
 * not repeated, a currency symbol of at most 8 characters, a one-character CSV delimiter, and a
 * slug that is not empty nor reserved once normalised). Messages are i18n keys. The schemas also
 * turn the form's values into the request body.
 */
import { z } from 'zod';
import { DEFAULT_CURRENCY_FORMAT, DEFAULT_CURRENCY_SYMBOL } from '@/lib/currency';
import { issueMessage, slugify } from '@/lib/validation';
import { DEFAULT_DELIMITER } from '@/features/collections/lib/csv-table';
import {
  CURRENCY_FORMATS,
  FIELD_TYPES,
  type Field,
  type FieldMeta,
  type FieldType,
  type TableMeta,
} from '@/features/collections/types';

const orderDir = z.enum(['asc', 'desc']);

/** The slug stored for a name and a typed slug: the typed one, else the name's (both slugified). */
export function storedSlug(slug: string, name: string): string {
  return slugify(slug.trim() === '' ? name : slug);
}

export const tableFormSchema = z
  .object({
    name: z.string().trim().min(1, 'collections.validation.nameRequired'),
    slug: z.string().trim(),
    meta: z.object({
      plural: z.string().trim().min(1, 'collections.validation.pluralRequired'),
      singular: z.string().trim().min(1, 'collections.validation.singularRequired'),
      hasSingular: z.boolean(),
      includeDate: z.boolean(),
      includeTitle: z.boolean(),
      orderField: z.string().min(1),
      orderDir,
      orderField2: z.string().nullable(),
      orderDir2: orderDir.nullable(),
    }),
  })
  .superRefine((value, ctx) => {
    // `collection_slug`: "Slug is required" when neither slug nor name leaves one.
    if (value.name !== '' && storedSlug(value.slug, value.name) === '')
      ctx.addIssue({ code: 'custom', path: ['slug'], message: 'validation.slugRequired' });
  })
  .transform(({ name, slug, meta }) => ({
    name,
    slug: storedSlug(slug, name),
    meta: {
      ...meta,
      orderField2: meta.orderField2 || null,
      orderDir2: meta.orderField2 ? (meta.orderDir2 ?? 'asc') : null,
    } satisfies TableMeta,
  }));
export type TableFormValues = z.input<typeof tableFormSchema>;
export type TableBody = z.output<typeof tableFormSchema>;

/** Field slugs the server keeps for a record's own columns (`field_slug`). */
export const RESERVED_FIELD_SLUGS = ['name', 'slug', 'created_at', 'updated_at', 'id'];

/** Types whose values are picked from the field's options. */
export function hasOptions(type: string): boolean {
  return type === 'select' || type === 'multiselect' || type === 'image-select';
}

/** The field modal's values: flat, as the inputs hold them. */
export interface FieldFormValues {
  name: string;
  slug: string;
  type: FieldType | '';
  required: boolean;
  hideAtListing: boolean;
  options: { name: string; image: string }[];
  /** The relation's collection id, as its select holds it ('' for none). */
  table: string;
  delimiter: string;
  symbol: string;
  format: (typeof CURRENCY_FORMATS)[number];
}

/** The body of POST /api/fields and /api/fields/{id}, without `table_id`. */
export type FieldBody = Pick<Field, 'name' | 'slug' | 'type' | 'required' | 'options' | 'meta'>;

export function fieldFormValues(field: Field | undefined): FieldFormValues {
  const meta = field?.meta ?? {};
  return {
    name: field?.name ?? '',
    slug: field?.slug ?? '',
    type: field?.type ?? '',
    required: field?.required === '1',
    hideAtListing: meta.hideAtListing === true,
    options: (field?.options ?? []).map((option) => ({ name: option.name, image: option.image ?? '' })),
    table: meta.table === undefined ? '' : String(meta.table),
    delimiter: meta.delimiter ?? DEFAULT_DELIMITER,
    symbol: meta.symbol ?? DEFAULT_CURRENCY_SYMBOL,
    format: meta.format ?? DEFAULT_CURRENCY_FORMAT,
  };
}

export const fieldFormSchema = z
  .object({
    name: z.string().trim().min(1, 'collections.validation.nameRequired'),
    slug: z.string().trim(),
    type: z.union([z.enum(FIELD_TYPES), z.literal('')]),
    required: z.boolean(),
    hideAtListing: z.boolean(),
    options: z.array(z.object({ name: z.string().trim(), image: z.string() })),
    table: z.string(),
    delimiter: z.string(),
    symbol: z.string(),
    format: z.enum(CURRENCY_FORMATS),
  })
  .superRefine((value, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (value.type === '') issue('type', 'collections.validation.typeRequired');
    if (value.name !== '') {
      const slug = storedSlug(value.slug, value.name);
      if (slug === '' || RESERVED_FIELD_SLUGS.includes(slug)) issue('slug', 'validation.fieldSlugReserved');
    }
    if (value.type === 'relation' && !/^[1-9]\d*$/.test(value.table))
      issue('table', 'collections.validation.relationRequired');
    if (value.type === 'csvtable' && [...value.delimiter].length > 1)
      issue('delimiter', 'validation.delimiterOneCharacter');
    if (value.type === 'currency' && [...value.symbol].length > 8)
      issue('symbol', issueMessage('validation.tooLong', { max: 8 }));
    if (hasOptions(value.type)) {
      const names = value.options.map((option) => option.name).filter((name) => name !== '');
      const repeated = names.find((name, index) => names.indexOf(name) !== index);
      if (names.length === 0) issue('options', 'validation.optionsRequired');
      else if (repeated !== undefined)
        issue('options', issueMessage('validation.optionRepeated', { name: repeated }));
      else if (names.some((name) => new TextEncoder().encode(name).length > 200))
        issue('options', issueMessage('validation.tooLong', { max: 200 }));
    }
  })
  .transform((value): FieldBody => {
    const type = value.type as FieldType;
    const meta: FieldMeta = {};
    if (value.hideAtListing) meta.hideAtListing = true;
    if (type === 'relation') meta.table = Number(value.table);
    if (type === 'csvtable') meta.delimiter = value.delimiter || DEFAULT_DELIMITER;
    if (type === 'currency') {
      meta.symbol = value.symbol;
      meta.format = value.format;
    }
    return {
      name: value.name,
      slug: storedSlug(value.slug, value.name),
      type,
      required: value.required ? '1' : '0',
      options: hasOptions(type)
        ? value.options
            .filter((option) => option.name !== '')
            .map((option) => ({
              name: option.name,
              ...(type === 'image-select' && option.image ? { image: option.image } : {}),
            }))
        : [],
      meta,
    };
  });
