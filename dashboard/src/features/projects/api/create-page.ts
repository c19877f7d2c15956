import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Page } from '@/lib/types';

export interface CreatePageInput {
  name: string;
  project_id: number;
}

export function createPage(input: CreatePageInput): Promise<Page> {
  return apiJson<Page>('/api/pages', { method: 'POST', body: input });
}

export function useCreatePage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createPage,
    onSuccess: (page) =>
      client.invalidateQueries({ queryKey: queryKeys.project(page.project_id), exact: true }),
  });
}
