import { useMutation } from '@tanstack/react-query';
import { apiText } from '@/lib/api-client';
import { loadPage } from '@/features/user-admin/lib/load-page';
import { paths } from '@/app/paths';

/** POST /api/loginBack → 200: the session returns to the administrator who used 'login as'. */
export function loginBack(): Promise<void> {
  return apiText('/api/loginBack', { method: 'POST' }).then(() => undefined);
}

/** Back to the administrator's account, reloaded at the users screen. */
export function useLoginBack() {
  return useMutation({ mutationFn: loginBack, onSuccess: () => loadPage(paths.erpUsers.build()) });
}
