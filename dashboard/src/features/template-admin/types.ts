/** Themes as the administrator's screens see them (GET /erp/templateList, GET /api/templates/{id}). */
import type { Template } from '@/lib/types';

export type { TemplateDetail, TemplatePage } from '@/lib/types';

/** One template of the admin list (published or not); same shape as the theme picker's. */
export type TemplateView = Template;

/** Body of POST /erp/template/{id}: any of the descriptive fields. */
export type TemplatePayload = Partial<
  Pick<Template, 'name' | 'description' | 'category' | 'order' | 'is_published'>
>;
