import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Imported } from '@/lib/types';

export type { Imported };

/** POST /erp/import-categories {categories: <export text>}; all or nothing (422 names the bad entry). */
export function importCategories(text: string): Promise<Imported> {
  return apiJson<Imported>('/erp/import-categories', { method: 'POST', body: { categories: text } });
}

export function useImportCategories() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: importCategories,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.blocks }),
  });
}
