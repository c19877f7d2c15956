/** Public platform settings (GET /api/config): domains, DNS target, demo credentials. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { PublicConfig } from '@/lib/types';

export function getConfig(): Promise<PublicConfig> {
  return apiJson<PublicConfig>('/api/config');
}

export const configQueryOptions = queryOptions({
  queryKey: queryKeys.config,
  queryFn: getConfig,
  staleTime: Infinity,
});

export function useConfig() {
  return useQuery(configQueryOptions);
}
