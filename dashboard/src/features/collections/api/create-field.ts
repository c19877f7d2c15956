import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Field, FieldMeta, FieldOption, FieldType } from '@/features/collections/types';

/** Body of POST /api/fields and POST /api/fields/{id}. */
export interface FieldInput {
  table_id: number;
  name: string;
  slug?: string;
  type: FieldType;
  required: '1' | '0';
  options: FieldOption[];
  meta: FieldMeta;
}

export function createField(input: FieldInput): Promise<Field> {
  return apiJson<Field>('/api/fields', { method: 'POST', body: input });
}

export function useCreateField() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createField,
    onSuccess: (field) => client.invalidateQueries({ queryKey: queryKeys.table(field.table_id) }),
  });
}
