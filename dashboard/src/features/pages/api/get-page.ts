import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Page } from '@/lib/types';

export function getPage(projectId: number, pageId: number): Promise<Page> {
  return apiJson<Page>(`/api/project/${projectId}/page/${pageId}`);
}

export function pageQueryOptions(projectId: number, pageId: number) {
  return queryOptions({
    queryKey: queryKeys.page(projectId, pageId),
    queryFn: () => getPage(projectId, pageId),
  });
}

export function usePage(projectId: number, pageId: number) {
  return useQuery(pageQueryOptions(projectId, pageId));
}
