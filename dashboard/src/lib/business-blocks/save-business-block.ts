import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { refreshBusinessLibrary } from './get-business-blocks';
import type { BusinessBlock, SaveBusinessBlockInput } from '@/lib/types';

export interface SaveBusinessBlockArgs {
  /** Set to replace that block of the business's library. */
  id?: number;
  block: SaveBusinessBlockInput;
}

/** The business's administrators: adds a block (201) or replaces one (200) of the business's library. */
export function saveBusinessBlock({ id, block }: SaveBusinessBlockArgs): Promise<BusinessBlock> {
  return apiJson<BusinessBlock>(id === undefined ? '/api/business/blocks' : `/api/business/blocks/${id}`, {
    method: 'POST',
    body: block,
  });
}

/** Saves, then refreshes the editor's library and the business admin's list. */
export function useSaveBusinessBlock() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveBusinessBlock,
    onSuccess: () => refreshBusinessLibrary(client),
  });
}
