import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { rememberSignedIn } from '@/lib/auth/get-user';
import { queryKeys } from '@/lib/query-keys';
import type { LoginRequest, User } from '@/lib/types';

export type LoginInput = LoginRequest;

export function login(input: LoginInput): Promise<User> {
  return apiJson<User>('/api/login', { method: 'POST', body: input });
}

/** Signs in and stores the user; any cached data of a previous session is dropped. */
export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (user) => {
      client.removeQueries({ queryKey: queryKeys.projects });
      client.setQueryData(queryKeys.user, user);
      rememberSignedIn(true);
    },
  });
}
