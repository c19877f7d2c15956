import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { FormEmail } from '@/features/form-history/types';

/** Sends the confirmation e-mail again (a new link; the old one stops working). */
export function resendFormEmail(projectId: number): Promise<FormEmail> {
  return apiJson<FormEmail>(`/api/projects/${projectId}/form-email/resend`, { method: 'POST', body: {} });
}

export function useResendFormEmail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: resendFormEmail,
    onSuccess: (view, projectId) => client.setQueryData(queryKeys.formEmail(projectId), view),
  });
}
