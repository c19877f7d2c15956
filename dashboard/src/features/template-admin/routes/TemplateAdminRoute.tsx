import { TemplateAdminScreen } from '@/features/template-admin/components/TemplateAdminScreen';

/** /erp/templates: admin only (RequireAdmin), loaded lazily by the router. */
export function TemplateAdminRoute() {
  return <TemplateAdminScreen />;
}
