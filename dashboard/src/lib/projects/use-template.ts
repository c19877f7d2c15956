import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Project } from '@/lib/types';

export interface UseTemplateInput {
  templateId: number;
  name: string;
}

/** Creates a project from a theme; answers with the new project. */
export function createFromTemplate({ templateId, name }: UseTemplateInput): Promise<Project> {
  return apiJson<Project>(`/api/templates/use/${templateId}`, { method: 'POST', body: { name } });
}

export function useCreateFromTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createFromTemplate,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.projects, exact: true }),
  });
}
