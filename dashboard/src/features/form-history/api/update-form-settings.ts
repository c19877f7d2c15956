import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Project } from '@/lib/types';
import type { FormHistoryOrder } from '@/features/form-history/types';

export interface UpdateFormSettingsInput {
  projectId: number;
  formHistoryOrderBy: FormHistoryOrder;
  /** A static page of the project, or null: the form's own page shows the confirmation. */
  formThankYouPage: number | null;
}

/**
 * Saves the form history order and the thank-you page in the project's meta (the server checks
 * the page is one of this project's; the site follows it from its next publication).
 */
export function updateFormSettings({
  projectId,
  formHistoryOrderBy,
  formThankYouPage,
}: UpdateFormSettingsInput): Promise<Project> {
  return apiJson<Project>(`/api/projects/${projectId}/settings`, {
    method: 'POST',
    body: { formHistoryOrderBy, formThankYouPage },
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
