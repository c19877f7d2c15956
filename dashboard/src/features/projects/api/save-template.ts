import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Template } from '@/lib/types';

export interface SaveTemplateInput {
  project_id: number;
  name: string;
  template_id?: number;
}

/** Admins only: saves a project as a theme. */
export function saveTemplate(input: SaveTemplateInput): Promise<Template> {
  return apiJson<Template>('/api/templates', { method: 'POST', body: input });
}

export function useSaveTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveTemplate,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.templates }),
  });
}
