import { useMutation } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';

export function forgot(input: { email: string }): Promise<{ message: string }> {
  return apiJson<{ message: string }>('/api/forgot', { method: 'POST', body: input });
}

export function useForgot() {
  return useMutation({ mutationFn: forgot });
}
