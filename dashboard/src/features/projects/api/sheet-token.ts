import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { SheetLink } from '@/lib/types';

export type { SheetLink };

/** GET /api/projects/{id}/sheet-token. */
export function getSheetLink(projectId: number): Promise<SheetLink> {
  return apiJson<SheetLink>(`/api/projects/${projectId}/sheet-token`);
}

export function sheetLinkQueryOptions(projectId: number) {
  return queryOptions({ queryKey: queryKeys.sheetLink(projectId), queryFn: () => getSheetLink(projectId) });
}

export function useSheetLink(projectId: number) {
  return useQuery(sheetLinkQueryOptions(projectId));
}

/** POST /api/projects/{id}/sheet-token: a new token; the old link stops working, the client panel's is untouched. */
export function rotateSheetToken(projectId: number): Promise<SheetLink> {
  return apiJson<SheetLink>(`/api/projects/${projectId}/sheet-token`, { method: 'POST', body: {} });
}

export function useRotateSheetToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: rotateSheetToken,
    onSuccess: (link, projectId) => client.setQueryData(queryKeys.sheetLink(projectId), link),
  });
}
