import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Page } from '@/lib/types';
import { normalizePageSlug } from '@/lib/validation';

export interface CreatePageInput {
  name: string;
  project_id: number;
  /** The page's address; when left out, or equal to the one the server derives from the name, not sent. */
  slug?: string;
  /** A collection page's collection; null or left out for a static page. */
  table_id?: number | null;
}

/**
 * Creates a page. `POST /api/pages` takes the name (the server derives the slug from it); a slug
 * the person changed and a collection are then set with `POST /api/page/{id}`, as the page's
 * settings do.
 */
export async function createPage(input: CreatePageInput): Promise<Page> {
  const page = await apiJson<Page>('/api/pages', {
    method: 'POST',
    body: { name: input.name, project_id: input.project_id },
  });
  const changes: { slug?: string; table_id?: number } = {};
  if (input.slug !== undefined && normalizePageSlug(input.slug) !== page.slug)
    changes.slug = normalizePageSlug(input.slug);
  if (input.table_id != null) changes.table_id = input.table_id;
  if (Object.keys(changes).length === 0) return page;
  return apiJson<Page>(`/api/page/${page.id}`, { method: 'POST', body: changes });
}

export function useCreatePage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createPage,
    onSettled: (_page, _error, input) =>
      client.invalidateQueries({ queryKey: queryKeys.project(input.project_id), exact: true }),
  });
}
