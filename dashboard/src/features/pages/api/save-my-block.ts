import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { MyBlock } from '@/features/pages/types';

export interface SaveMyBlockInput {
  /** Set to overwrite that My Blocks entry. */
  id?: number;
  name: string;
  css: string;
  js: string;
  /** With its x-vars attribute. */
  template: string;
}

/** Creates (201) or overwrites (200) one of the user's My Blocks. */
export function saveMyBlock(input: SaveMyBlockInput): Promise<MyBlock> {
  return apiJson<MyBlock>('/api/newMyBlock', { method: 'POST', body: input });
}

export function useSaveMyBlock() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveMyBlock,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.blocks }),
  });
}
