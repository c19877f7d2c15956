import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface DeleteFormEntriesInput {
  projectId: number;
  selected: number[];
}

/** Deletes the selected submissions of the project; answers how many went. */
export function deleteFormEntries({
  projectId,
  selected,
}: DeleteFormEntriesInput): Promise<{ deleted: number }> {
  return apiJson<{ deleted: number }>(`/api/projects/${projectId}/form-history`, {
    method: 'DELETE',
    body: { selected },
  });
}

export function useDeleteFormEntries() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteFormEntries,
    onSuccess: (_, { projectId }) => client.invalidateQueries({ queryKey: queryKeys.formHistory(projectId) }),
  });
}
