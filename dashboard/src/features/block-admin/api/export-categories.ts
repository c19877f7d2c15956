import { useMutation } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';

/** GET /erp/export-categories → every category, in the shape import-categories reads. */
export function exportCategories(): Promise<unknown[]> {
  return apiJson<unknown[]>('/erp/export-categories');
}

export function useExportCategories() {
  return useMutation({ mutationFn: exportCategories });
}
