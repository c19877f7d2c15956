import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { rememberSignedIn } from '@/lib/auth/get-user';
import { queryKeys } from '@/lib/query-keys';
import type { RegisterRequest, User } from '@/lib/types';

export type RegisterInput = RegisterRequest;

export function register(input: RegisterInput): Promise<User> {
  return apiJson<User>('/api/register', { method: 'POST', body: input });
}

/** Creates the account; the server signs the new user in. */
export function useRegister() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: (user) => {
      client.removeQueries({ queryKey: queryKeys.projects });
      client.setQueryData(queryKeys.user, user);
      rememberSignedIn(true);
    },
  });
}
