import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Redirect } from '@/features/redirects/types';

export interface SaveRedirectInput {
  /** Absent: a new rule. */
  id?: number;
  project_id: number;
  from: string;
  to: string;
}

/** Creates (POST /api/redirects) or updates (POST /api/redirects/{id}) a rule. */
export function saveRedirect({ id, ...body }: SaveRedirectInput): Promise<Redirect> {
  return apiJson<Redirect>(id === undefined ? '/api/redirects' : `/api/redirects/${id}`, {
    method: 'POST',
    body,
  });
}

export function useSaveRedirect() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveRedirect,
    onSuccess: (redirect) => {
      const { warning: _, warnings: __, ...stored } = redirect;
      client.setQueryData(queryKeys.redirect(redirect.id), stored);
      return client.invalidateQueries({ queryKey: queryKeys.redirects(redirect.project_id) });
    },
  });
}
