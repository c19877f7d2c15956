import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { User } from '@/lib/types';
import type { AccountPayload } from '@/features/account/types';

/** POST /api/user {name?, language?, currency?} → the updated user (422 {error} with the reason). */
export function updateUser(payload: AccountPayload): Promise<User> {
  return apiJson<User>('/api/user', { method: 'POST', body: payload });
}

export function useUpdateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: (user) => {
      client.setQueryData(queryKeys.user, user);
      // The balance and the history are shown in the account's currency.
      void client.invalidateQueries({ queryKey: queryKeys.transactions });
    },
  });
}

/** POST /api/user/password {current_password, new_password}: the account's other sessions end. */
export function changePassword(payload: { current_password: string; new_password: string }) {
  return apiJson<{ message: string }>('/api/user/password', { method: 'POST', body: payload });
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
