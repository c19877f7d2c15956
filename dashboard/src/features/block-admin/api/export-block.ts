import { useMutation } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';

/** GET /erp/export-block/{id} → one block, in the shape import-blocks reads. */
export function exportBlock(id: number): Promise<unknown> {
  return apiJson<unknown>(`/erp/export-block/${id}`);
}

export function useExportBlock() {
  return useMutation({ mutationFn: exportBlock });
}
