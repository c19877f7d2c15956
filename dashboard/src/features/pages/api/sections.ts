import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Page } from '@/lib/types';
import type { PageBlock } from '@/features/pages/types';
import type { SectionKind, Sections } from '@/features/pages/lib/shared-sections';

/** The project's shared header and footer (absent ones are left out). */
export function getSections(projectId: number): Promise<Sections> {
  return apiJson<Sections>(`/api/project/${projectId}/sections`);
}

export function sectionsQueryOptions(projectId: number) {
  return queryOptions({
    queryKey: queryKeys.sections(projectId),
    queryFn: () => getSections(projectId),
  });
}

export function useSections(projectId: number) {
  return useQuery(sectionsQueryOptions(projectId));
}

/** Saves the shared section as edited (every page shows it). */
export function saveSection(projectId: number, kind: SectionKind, block: PageBlock): Promise<Sections> {
  return apiJson<Sections>(`/api/project/${projectId}/sections/${kind}`, { method: 'POST', body: { block } });
}

/**
 * Makes block `uid` of the page the site's header or footer: it leaves the page (and the other
 * pages drop their copies of it); answers with the page as it is now and the sections.
 */
export function makeSection(
  projectId: number,
  pageId: number,
  kind: SectionKind,
  uid: string,
): Promise<{ page: Page; sections: Sections }> {
  return apiJson(`/api/project/${projectId}/page/${pageId}/sections/${kind}`, {
    method: 'POST',
    body: { uid },
  });
}
