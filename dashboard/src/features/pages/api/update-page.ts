import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { showWarnings } from '@/lib/warnings';
import { queryKeys } from '@/lib/query-keys';
import type { CodedWarning, Page } from '@/lib/types';
import type { PageBlock, PageMeta } from '@/features/pages/types';

/** Any subset of the page's fields; the editor's autosave sends blocks and their output too. */
export interface UpdatePageInput {
  id: number;
  name?: string;
  slug?: string;
  description?: string;
  image?: string | null;
  meta?: PageMeta;
  table_id?: number | null;
  blocks?: PageBlock[];
  /** The rendered HTML of all blocks, joined. */
  output?: string;
}

/** The page as saved; `warnings` when its new address falls under a redirect. */
export function updatePage({ id, ...body }: UpdatePageInput): Promise<Page & { warnings?: CodedWarning[] }> {
  return apiJson<Page & { warnings?: CodedWarning[] }>(`/api/page/${id}`, { method: 'POST', body });
}

/**
 * Saving a page changes the page and the project's page list. The page's own cache entry is
 * replaced with the answer rather than refetched (the editor would otherwise download the
 * blocks it just sent). A new address that one of the project's redirects hides is saved, and
 * the owner is told in a warning toast.
 */
export function useUpdatePage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updatePage,
    onSuccess: ({ warnings, ...page }) => {
      showWarnings(warnings);
      client.setQueryData(queryKeys.page(page.project_id, page.id), page);
      return client.invalidateQueries({ queryKey: queryKeys.project(page.project_id), exact: true });
    },
  });
}
