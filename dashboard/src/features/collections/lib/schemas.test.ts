import { describe, expect, it } from 'vitest';
import { fieldErrors } from '@/lib/validation';
import { DEFAULT_TABLE_META } from '@/features/collections/types';
import { fieldFormSchema, tableFormSchema } from './schemas';

describe('tableFormSchema', () => {
  it('requires name, plural and singular', () => {
    const result = tableFormSchema.safeParse({ name: ' ', slug: '', meta: { ...DEFAULT_TABLE_META } });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(fieldErrors(result.error)).toEqual({
        name: 'collections.validation.nameRequired',
        'meta.plural': 'collections.validation.pluralRequired',
        'meta.singular': 'collections.validation.singularRequired',
      });
    }
  });
});

describe('fieldFormSchema', () => {
  const base = {
    name: 'Autor',
    slug: '',
    type: 'relation' as const,
    required: '0' as const,
    options: [],
    meta: {},
  };

  it('requires a relation target for relation fields', () => {
    const result = fieldFormSchema.safeParse(base);
    expect(result.success).toBe(false);
    if (!result.success)
      expect(fieldErrors(result.error)).toEqual({ 'meta.table': 'collections.validation.relationRequired' });
    expect(fieldFormSchema.safeParse({ ...base, meta: { table: 3 } }).success).toBe(true);
  });

  it('requires name and type', () => {
    const result = fieldFormSchema.safeParse({ ...base, name: '', type: '' });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(fieldErrors(result.error)).toEqual({
        name: 'collections.validation.nameRequired',
        type: 'collections.validation.typeRequired',
      });
    }
  });
});
