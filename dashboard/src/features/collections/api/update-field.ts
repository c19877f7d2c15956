import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Field } from '@/features/collections/types';
import type { FieldInput } from './create-field';

export interface UpdateFieldInput extends FieldInput {
  id: number;
}

export function updateField({ id, ...body }: UpdateFieldInput): Promise<Field> {
  return apiJson<Field>(`/api/fields/${id}`, { method: 'POST', body });
}

export function useUpdateField() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateField,
    onSuccess: (field) => client.invalidateQueries({ queryKey: queryKeys.table(field.table_id) }),
  });
}
