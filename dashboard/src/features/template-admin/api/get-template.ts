import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { TemplateDetail } from '@/features/template-admin/types';

/** GET /api/templates/{id} → the template with its pages (404 for an unpublished one, except to admins). */
export function getTemplate(id: number): Promise<TemplateDetail> {
  return apiJson<TemplateDetail>(`/api/templates/${id}`);
}

export const templateQueryOptions = (id: number) =>
  queryOptions({ queryKey: queryKeys.template(id), queryFn: () => getTemplate(id) });

export function useTemplate(id: number) {
  return useQuery({ ...templateQueryOptions(id), enabled: Number.isInteger(id) });
}
