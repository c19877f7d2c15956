import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { BusinessUser, BusinessUserPayload } from '@/features/business-users/types';

export interface SaveBusinessUserInput {
  /** Absent to create a user. */
  id?: number;
  user: BusinessUserPayload;
}

/**
 * POST /api/business/users (create, 201) or /api/business/users/{id} (update, 200) → the user.
 * 422 / 409 carry the server's message and the field it names.
 */
export function saveBusinessUser({ id, user }: SaveBusinessUserInput): Promise<BusinessUser> {
  const url = id === undefined ? '/api/business/users' : `/api/business/users/${id}`;
  return apiJson<BusinessUser>(url, { method: 'POST', body: user });
}

export function useSaveBusinessUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveBusinessUser,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.businessUsers }),
  });
}
