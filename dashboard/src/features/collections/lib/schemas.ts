/**
 * Form schemas of the collection editor and the field modal, mirroring the server's messages
 * ('Name is required', 'Plural is required', 'Singular is required', 'Type is required',
 * 'The relation collection is required'). Messages are i18n keys.
 */
import { z } from 'zod';
import { CURRENCY_FORMATS, FIELD_TYPES } from '@/features/collections/types';

const orderDir = z.enum(['asc', 'desc']);

export const tableFormSchema = z.object({
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
});
export type TableFormValues = z.infer<typeof tableFormSchema>;

export const fieldFormSchema = z
  .object({
    name: z.string().trim().min(1, 'collections.validation.nameRequired'),
    slug: z.string().trim(),
    type: z.union([z.enum(FIELD_TYPES), z.literal('')]),
    required: z.enum(['1', '0']),
    options: z.array(z.object({ name: z.string().trim(), image: z.string().optional() })),
    meta: z.object({
      table: z.number().int().positive().optional(),
      delimiter: z.string().optional(),
      symbol: z.string().optional(),
      format: z.enum(CURRENCY_FORMATS).optional(),
      hideAtListing: z.boolean().optional(),
    }),
  })
  .superRefine((value, ctx) => {
    if (value.type === '')
      ctx.addIssue({ code: 'custom', path: ['type'], message: 'collections.validation.typeRequired' });
    if (value.type === 'relation' && value.meta.table === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['meta', 'table'],
        message: 'collections.validation.relationRequired',
      });
    }
  });
export type FieldFormValues = z.infer<typeof fieldFormSchema>;

/** Types whose values are picked from the field's options. */
export function hasOptions(type: string): boolean {
  return type === 'select' || type === 'multiselect' || type === 'image-select';
}
