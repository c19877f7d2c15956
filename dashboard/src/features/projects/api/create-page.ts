import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { showWarnings } from '@/lib/warnings';
import { queryKeys } from '@/lib/query-keys';
import type { CodedWarning, Page } from '@/lib/types';
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
 * Creates a page. `POST /api/pages` takes the name (the server derives the slug from it) and, for
 * a collection page, the collection: the server then starts the page with the collection's detail
 * block bound to its fields, so it never opens empty. A slug the person changed is then set with
 * `POST /api/page/{id}`, as the page's settings do. When that second request is refused (a slug
 * another page has), the page just made is deleted again and the refusal is thrown: the person
 * corrects the slug and creates the page once, instead of leaving a page under the name's slug
 * behind (which would also make the next attempt fail on that slug).
 * The answer's `warnings` are about the page's final address: a redirect that hides it
 * (`page_under_redirect`), which the hook shows in a warning toast.
 */
export async function createPage(input: CreatePageInput): Promise<SavedPage> {
  const page = await apiJson<SavedPage>('/api/pages', {
    method: 'POST',
    body: {
      name: input.name,
      project_id: input.project_id,
      ...(input.table_id != null ? { table_id: input.table_id } : {}),
    },
  });
  if (input.slug === undefined || normalizePageSlug(input.slug) === page.slug) return page;
  try {
    return await apiJson<SavedPage>(`/api/page/${page.id}`, {
      method: 'POST',
      body: { slug: normalizePageSlug(input.slug) },
    });
  } catch (error) {
    // The refusal is what the person needs to see, whether or not the page could be removed.
    await apiJson<void>(`/api/page/${page.id}`, { method: 'DELETE' }).catch(() => undefined);
    throw error;
  }
}

/** A page as created, with what the owner should know about it. */
export type SavedPage = Page & { warnings?: CodedWarning[] };

export function useCreatePage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createPage,
    onSuccess: (page) => showWarnings(page.warnings),
    onSettled: (_page, _error, input) =>
      client.invalidateQueries({ queryKey: queryKeys.project(input.project_id), exact: true }),
  });
}
