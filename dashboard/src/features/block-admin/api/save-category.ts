import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { LibraryCategory } from '@/lib/types';
import type { CategoryPayload } from '@/features/block-admin/types';

export interface SaveCategoryInput {
  /** Absent: a new category. */
  id?: number;
  category: CategoryPayload;
}

/** Creates (POST /erp/category, 201) or updates (POST /erp/category/{id}) a category. */
export function saveCategory({ id, category }: SaveCategoryInput): Promise<LibraryCategory> {
  return apiJson<LibraryCategory>(id === undefined ? '/erp/category' : `/erp/category/${id}`, {
    method: 'POST',
    body: category,
  });
}

export function useSaveCategory() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveCategory,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.blocks }),
  });
}
