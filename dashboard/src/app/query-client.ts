import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/**
 * 4xx answers are final (no retries). A 401 on any query means the session ended:
 * clearing the user sends RequireAuth to the login screen.
 */
export function createQueryClient(): QueryClient {
  const signOutOn401 = (error: Error) => {
    if (error instanceof ApiError && error.status === 401) client.setQueryData(queryKeys.user, null);
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: signOutOn401 }),
    mutationCache: new MutationCache({ onError: signOutOn401 }),
    defaultOptions: {
      queries: {
        retry: (failureCount, error) =>
          !(error instanceof ApiError && error.status < 500) && failureCount < 2,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
  return client;
}
