import { useMutation } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';

export interface NewPasswordInput {
  email: string;
  password: string;
  token: string;
}

export function newPassword(input: NewPasswordInput): Promise<{ message: string }> {
  return apiJson<{ message: string }>('/api/new-password', { method: 'POST', body: input });
}

export function useNewPassword() {
  return useMutation({ mutationFn: newPassword });
}
