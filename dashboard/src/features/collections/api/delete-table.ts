import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface DeleteTableInput {
  id: number;
  projectId: number;
}

/** Deletes the collection and all its records. */
export function deleteTable({ id }: DeleteTableInput): Promise<void> {
  return apiJson<void>(`/api/tables/${id}`, { method: 'DELETE' });
}

export function useDeleteTable() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteTable,
    onSuccess: (_, { id, projectId }) => {
      client.removeQueries({ queryKey: queryKeys.table(id) });
      return client.invalidateQueries({ queryKey: queryKeys.project(projectId), exact: true });
    },
  });
}
