import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { User } from '@/lib/types';

/** POST /api/user/email-confirmation: sends the sign-in address its confirmation link again → the user. */
export function resendEmailConfirmation(): Promise<User> {
  return apiJson<User>('/api/user/email-confirmation', { method: 'POST', body: {} });
}

export function useResendEmailConfirmation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: resendEmailConfirmation,
    onSuccess: (user) => client.setQueryData(queryKeys.user, user),
  });
}

/** POST /api/confirm-email {token}: confirms the sign-in address from its e-mail's link (no sign-in). */
export function confirmEmail(token: string): Promise<{ message: string }> {
  return apiJson<{ message: string }>('/api/confirm-email', { method: 'POST', body: { token } });
}

export function useConfirmEmail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: confirmEmail,
    // A signed-in reader sees the account's state change at once.
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.user }),
  });
}
