import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { FormEmail } from '@/features/form-history/types';

export interface SetFormEmailInput {
  projectId: number;
  /** Empty: the owner's own address. */
  email: string;
}

/** Sets the notification address; the server e-mails it a confirmation link. */
export function setFormEmail({ projectId, email }: SetFormEmailInput): Promise<FormEmail> {
  return apiJson<FormEmail>(`/api/projects/${projectId}/form-email`, { method: 'POST', body: { email } });
}

export function useSetFormEmail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: setFormEmail,
    onSuccess: (view, { projectId }) => {
      client.setQueryData(queryKeys.formEmail(projectId), view);
      return client.invalidateQueries({ queryKey: queryKeys.project(projectId), exact: true });
    },
  });
}
