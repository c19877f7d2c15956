import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Imported } from './import-categories';

/** POST /erp/import-blocks {blocks: <export text>}; all or nothing (422 names the bad entry). */
export function importBlocks(text: string): Promise<Imported> {
  return apiJson<Imported>('/erp/import-blocks', { method: 'POST', body: { blocks: text } });
}

export function useImportBlocks() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: importBlocks,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.blocks }),
  });
}
