import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { TemplatePayload, TemplateView } from '@/features/template-admin/types';

export interface SaveTemplateInfoInput {
  id: number;
  template: TemplatePayload;
}

/** POST /erp/template/{id} with the changed fields → the template (422 names the bad field). */
export function saveTemplateInfo({ id, template }: SaveTemplateInfoInput): Promise<TemplateView> {
  return apiJson<TemplateView>(`/erp/template/${id}`, { method: 'POST', body: template });
}

export function useSaveTemplateInfo() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveTemplateInfo,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.templates }),
  });
}
