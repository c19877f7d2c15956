import { useMutation } from '@tanstack/react-query';
import { apiText } from '@/lib/api-client';
import { loadPage } from '@/features/user-admin/lib/load-page';
import { paths } from '@/app/paths';

/** POST /api/loginWith/{id} → 200: the session is now that user's (the administrator is kept as impersonator). */
export function loginWith(id: number): Promise<void> {
  return apiText(`/api/loginWith/${id}`, { method: 'POST' }).then(() => undefined);
}

/** After switching, the whole app reloads at / (spec §7: "then reload to /"). */
export function useLoginWith() {
  return useMutation({ mutationFn: loginWith, onSuccess: () => loadPage(paths.home.build()) });
}
