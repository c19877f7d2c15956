import { useMutation } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import type { ConfirmedFormEmail } from '@/features/form-history/types';

/** Confirms a notification address with the token from its confirmation e-mail (no sign-in). */
export function confirmFormEmail(token: string): Promise<ConfirmedFormEmail> {
  return apiJson<ConfirmedFormEmail>('/api/form-email/confirm', { method: 'POST', body: { token } });
}

export function useConfirmFormEmail() {
  return useMutation({ mutationFn: confirmFormEmail });
}
