import { useTranslation } from 'react-i18next';
import { CheckboxField, InputField, TextAreaField } from '@/components/FormControls';
import { FormDialog } from '@/components/FormDialog';
import { toastOutcome } from '@/components/admin-toasts';
import { useZodForm } from '@/lib/forms';
import { useSaveTemplateInfo } from '@/features/template-admin/api/save-template-info';
import { templateFormSchema, templateFormValues } from '@/features/template-admin/lib/template-form';
import type { TemplatePayload, TemplateView } from '@/features/template-admin/types';

interface Props {
  template: TemplateView;
  onClose: () => void;
}

/** Edit a template's name, category, description and published flag ('1' / '0'). */
export function TemplateFormModal({ template, onClose }: Props) {
  const { t } = useTranslation();
  const save = useSaveTemplateInfo();
  const { form, bind, saveWith } = useZodForm(templateFormSchema, {
    defaultValues: templateFormValues(template),
    serverFields: ['name', 'category', 'description'],
  });

  const dialog = saveWith(
    save,
    (payload: TemplatePayload) => ({ id: template.id, template: payload }),
    onClose,
    toastOutcome(t),
  );

  return (
    <FormDialog title={t('templateAdmin.editTitle')} testId="template-form" form={dialog}>
      <div className="two-columns">
        <InputField label={t('templateAdmin.name')} id="template-name" required {...bind('name')} />
        <InputField label={t('templateAdmin.category')} id="template-category" {...bind('category')} />
      </div>
      <TextAreaField
        label={t('templateAdmin.description')}
        id="template-description"
        rows={4}
        {...bind('description')}
      />
      <CheckboxField
        label={t('templateAdmin.published')}
        field={form.register('published')}
        testId="template-published"
      />
    </FormDialog>
  );
}
