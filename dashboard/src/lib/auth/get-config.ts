/** Public platform settings (GET /api/config): domains, DNS target, demo credentials. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../api-client';
import { queryKeys } from '../query-keys';
import type { PublicConfig } from '../types';

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
