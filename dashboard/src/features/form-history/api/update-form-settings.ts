import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Project } from '@/lib/types';
import type { FormHistoryOrder } from '@/features/form-history/types';

export interface UpdateFormSettingsInput {
  projectId: number;
  formHistoryOrderBy: FormHistoryOrder;
}

/** Saves the form history order in the project's meta. */
export function updateFormSettings({
  projectId,
  formHistoryOrderBy,
}: UpdateFormSettingsInput): Promise<Project> {
  return apiJson<Project>(`/api/projects/${projectId}/settings`, {
    method: 'POST',
    body: { formHistoryOrderBy },
  });
}

export function useUpdateFormSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateFormSettings,
    onSuccess: (_, { projectId }) =>
      Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.formHistory(projectId) }),
        client.invalidateQueries({ queryKey: queryKeys.project(projectId), exact: true }),
      ]),
  });
}
