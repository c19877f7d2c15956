import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import type { Page } from '../../../lib/types';

export interface UpdatePageInput {
  id: number;
  name: string;
  slug: string;
  description: string;
}

export function updatePage({ id, ...body }: UpdatePageInput): Promise<Page> {
  return apiJson<Page>(`/api/page/${id}`, { method: 'POST', body });
}

/** Saving a page changes the page and the project's page list. */
export function useUpdatePage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updatePage,
    onSuccess: (page) =>
      Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.page(page.project_id, page.id) }),
        client.invalidateQueries({ queryKey: queryKeys.project(page.project_id), exact: true }),
      ]),
  });
}
