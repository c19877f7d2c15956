import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { TemplateView } from '@/features/template-admin/types';

/** GET /erp/templateList → every template, unpublished ones too, sorted by order then name. */
export function getTemplateList(): Promise<TemplateView[]> {
  return apiJson<TemplateView[]>('/erp/templateList');
}

/** Under the theme picker's key, so an admin change refreshes the picker too. */
export const templateListQueryOptions = queryOptions({
  queryKey: queryKeys.erpTemplates,
  queryFn: getTemplateList,
});

export function useTemplateList() {
  return useQuery(templateListQueryOptions);
}
