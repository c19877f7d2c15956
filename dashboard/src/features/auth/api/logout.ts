import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { rememberSignedIn } from '@/lib/auth/get-user';
import { queryKeys } from '@/lib/query-keys';

export function logout(): Promise<void> {
  return apiJson<void>('/api/logout');
}

/** Ends the session and forgets everything cached for it. */
export function useLogout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSettled: () => {
      client.removeQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.config[0] });
      client.setQueryData(queryKeys.user, null);
      rememberSignedIn(false);
    },
  });
}
