import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Template } from '@/lib/types';

/** Themes a new project can start from. */
export function getTemplates(): Promise<Template[]> {
  return apiJson<Template[]>('/api/templates');
}

export const templatesQueryOptions = queryOptions({
  queryKey: queryKeys.templates,
  queryFn: getTemplates,
  staleTime: 5 * 60_000,
});

export function useTemplates() {
  return useQuery(templatesQueryOptions);
}
