import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { FormEmail } from '@/features/form-history/types';

/** Where the project's form notifications go, and whether that address is confirmed. */
export function getFormEmail(projectId: number): Promise<FormEmail> {
  return apiJson<FormEmail>(`/api/projects/${projectId}/form-email`);
}

export function formEmailQueryOptions(projectId: number) {
  return queryOptions({
    queryKey: queryKeys.formEmail(projectId),
    queryFn: () => getFormEmail(projectId),
    enabled: Number.isInteger(projectId) && projectId > 0,
  });
}

export function useFormEmail(projectId: number) {
  return useQuery(formEmailQueryOptions(projectId));
}
