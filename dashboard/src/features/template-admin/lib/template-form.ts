/**
 * The admin's template form, checked as `erp_edit_template` (control-plane/src/routes/
 * templates.rs) checks it: a trimmed name of 1 to 200 characters, a category of at most 100
 * and a description of at most 1000; the published flag goes as '1' or '0'.
 */
import { z } from 'zod';
import { maxCharsField, requiredTextField } from '@/lib/validation';
import type { TemplatePayload, TemplateView } from '@/features/template-admin/types';

export const templateFormSchema = z
  .object({
    name: requiredTextField('validation.templateNameRequired', 200),
    category: z.string().trim().pipe(maxCharsField(100)),
    description: maxCharsField(1000),
    published: z.boolean(),
  })
  .transform(({ name, category, description, published }): TemplatePayload => ({
    name,
    category,
    description,
    is_published: published ? '1' : '0',
  }));
export type TemplateFormValues = z.input<typeof templateFormSchema>;

export function templateFormValues(template: TemplateView): TemplateFormValues {
  return {
    name: template.name,
    category: template.category,
    description: template.description,
    published: template.is_published === '1',
  };
}
