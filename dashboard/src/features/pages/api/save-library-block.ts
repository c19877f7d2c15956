import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { LibraryBlock } from '@/lib/types';

export interface SaveLibraryBlockInput {
  /** Set to overwrite that library block. */
  id?: number;
  name: string;
  category_id: number;
  image: string;
  css: string;
  js: string;
  template: string;
}

/** Admins and business admins: creates (201) or overwrites (200) a block of the global library. */
export function saveLibraryBlock(input: SaveLibraryBlockInput): Promise<LibraryBlock> {
  return apiJson<LibraryBlock>('/api/newBlock', { method: 'POST', body: input });
}

export function useSaveLibraryBlock() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveLibraryBlock,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.blocks }),
  });
}
