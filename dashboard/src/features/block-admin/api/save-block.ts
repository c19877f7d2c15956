import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { LibraryBlock } from '@/lib/types';
import type { BlockPayload } from '@/features/block-admin/types';

export interface SaveBlockInput {
  /** Absent: a new block. */
  id?: number;
  block: BlockPayload;
}

/** Creates (POST /erp/block, 201) or updates (POST /erp/block/{id}) a library block. */
export function saveBlock({ id, block }: SaveBlockInput): Promise<LibraryBlock> {
  return apiJson<LibraryBlock>(id === undefined ? '/erp/block' : `/erp/block/${id}`, {
    method: 'POST',
    body: block,
  });
}

export function useSaveBlock() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveBlock,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.blocks }),
  });
}
