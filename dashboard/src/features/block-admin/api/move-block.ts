import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { LibraryBlock } from '@/lib/types';

export interface MoveBlockInput {
  id: number;
  categoryId: number;
}

/** Changes a block's category (POST /erp/block/{id} with only {category_id}). */
export function moveBlock({ id, categoryId }: MoveBlockInput): Promise<LibraryBlock> {
  return apiJson<LibraryBlock>(`/erp/block/${id}`, { method: 'POST', body: { category_id: categoryId } });
}

export function useMoveBlock() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: moveBlock,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.blocks }),
  });
}
