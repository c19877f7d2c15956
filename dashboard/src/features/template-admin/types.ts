/** Themes as the administrator's screens see them (GET /erp/templateList, GET /api/templates/{id}). */
import type { Template } from '@/lib/types';

/** One template of the admin list (published or not); same shape as the theme picker's. */
export type TemplateView = Template;

/** One page of a template, for the preview's page switcher. */
export interface TemplatePage {
  name: string;
  /** "/" for the home page, "/sobre" and so on. */
  slug: string;
}

/** GET /api/templates/{id}: the template with its pages. */
export interface TemplateDetail extends TemplateView {
  pages: TemplatePage[];
}

/** Body of POST /erp/template/{id}: any of the descriptive fields. */
export interface TemplatePayload {
  name?: string;
  description?: string;
  category?: string;
  order?: number;
  is_published?: '1' | '0';
}
