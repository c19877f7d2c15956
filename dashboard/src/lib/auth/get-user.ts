/**
 * The signed-in user (GET /api/user). Shared by every feature, like bulletproof-react's
 * lib/auth: 401 means "signed out" and resolves to null instead of failing.
 *
 * The browser's console shows every 401 as an error, and the session cookie is HttpOnly, so the
 * screens anyone may open (login, forgot, new password, the header on them) ask only when this
 * browser may be signed in: a flag in localStorage, set by a user answer or a login and cleared
 * by a 401 or a logout. The guards (RequireAuth and the admin ones) always ask.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { readLocal, removeLocal, storageKeys, writeLocal } from '@/lib/storage';
import type { User } from '@/lib/types';

/** Remembers whether this browser is signed in (after a user answer, a login, a 401 or a logout). */
export function rememberSignedIn(signedIn: boolean): void {
  if (signedIn) writeLocal(storageKeys.signedIn, '1');
  else removeLocal(storageKeys.signedIn);
}

/** Whether this browser may be signed in: it had a session at its last look. */
export function maybeSignedIn(): boolean {
  return readLocal(storageKeys.signedIn) === '1';
}

export async function getUser(): Promise<User | null> {
  try {
    const user = await apiJson<User>('/api/user');
    rememberSignedIn(true);
    return user;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      rememberSignedIn(false);
      return null;
    }
    throw error;
  }
}

export const userQueryOptions = queryOptions({
  queryKey: queryKeys.user,
  queryFn: getUser,
  staleTime: Infinity,
});

export function useUser() {
  return useQuery(userQueryOptions);
}

/**
 * The user for screens anyone may open: asks GET /api/user only when this browser may be signed
 * in (else `data` stays undefined, as signed out), and reads what a guard or a login already put in
 * the cache.
 */
export function useOptionalUser() {
  return useQuery({ ...userQueryOptions, enabled: maybeSignedIn() });
}
