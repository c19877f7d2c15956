import { useMutation } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import type { NewPasswordRequest } from '@/lib/types';

export type NewPasswordInput = NewPasswordRequest;

export function newPassword(input: NewPasswordInput): Promise<{ message: string }> {
  return apiJson<{ message: string }>('/api/new-password', { method: 'POST', body: input });
}

export function useNewPassword() {
  return useMutation({ mutationFn: newPassword });
}
