import { Alert } from '@/components/Alert';
import { PageLoader } from '@/components/PageLoader';
import { NotFound } from '@/components/NotFound';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useNumberParam } from '@/lib/project-route';
import { useTemplate } from '@/features/template-admin/api/get-template';
import { TemplatePreview } from '@/features/template-admin/components/TemplatePreview';

/**
 * /template/:templateId: the theme preview, for every signed-in owner (a published template;
 * an unpublished one is the administrators' alone and answers 404), loaded lazily by the router.
 */
export function TemplatePreviewRoute() {
  const id = useNumberParam('templateId');
  const template = useTemplate(id);
  if (Number.isNaN(id)) return <NotFound />;
  if (template.isPending) return <PageLoader />;
  if (template.isError) {
    if (template.error instanceof ApiError && template.error.status === 404) return <NotFound />;
    return <Alert testId="template-preview-error">{errorMessage(template.error)}</Alert>;
  }
  // Keyed, so another template starts on its own home page.
  return <TemplatePreview key={template.data.id} template={template.data} />;
}
