import { useMutation } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';

/** GET /erp/export-blocks → every block, in the shape import-blocks reads. */
export function exportBlocks(): Promise<unknown[]> {
  return apiJson<unknown[]>('/erp/export-blocks');
}

export function useExportBlocks() {
  return useMutation({ mutationFn: exportBlocks });
}
