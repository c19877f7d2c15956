import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** Deletes every category and block (POST /erp/truncate → 204). */
export function truncateLibrary(): Promise<void> {
  return apiJson<void>('/erp/truncate', { method: 'POST' });
}

export function useTruncateLibrary() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: truncateLibrary,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.blocks }),
  });
}
