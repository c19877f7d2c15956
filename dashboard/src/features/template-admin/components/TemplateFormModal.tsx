import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CheckboxField, InputField, TextAreaField } from '@/components/FormControls';
import { FormDialog } from '@/components/FormDialog';
import { toastFailure, toastOk } from '@/components/admin-toasts';
import { useFormFailure } from '@/lib/forms';
import { useSaveTemplateInfo } from '@/features/template-admin/api/save-template-info';
import {
  templateFormSchema,
  templateFormValues,
  type TemplateFormValues,
} from '@/features/template-admin/lib/template-form';
import type { TemplatePayload, TemplateView } from '@/features/template-admin/types';

interface Props {
  template: TemplateView;
  onClose: () => void;
}

const FIELDS = ['name', 'category', 'description'] as const;

/** Edit a template's name, category, description and published flag ('1' / '0'). */
export function TemplateFormModal({ template, onClose }: Props) {
  const { t } = useTranslation();
  const save = useSaveTemplateInfo();
  const form = useForm<TemplateFormValues, unknown, TemplatePayload>({
    resolver: zodResolver(templateFormSchema),
    defaultValues: templateFormValues(template),
  });
  const failure = useFormFailure(form, FIELDS);
  const { errors } = form.formState;

  const submit = (payload: TemplatePayload) => {
    failure.clear();
    save.mutate(
      { id: template.id, template: payload },
      {
        onSuccess: () => {
          toastOk(t);
          onClose();
        },
        onError: (error) => {
          toastFailure(t, error);
          failure.report(error);
        },
      },
    );
  };

  return (
    <FormDialog
      title={t('templateAdmin.editTitle')}
      onClose={onClose}
      testId="template-form"
      form={form}
      onValid={submit}
      saving={save.isPending}
      saveTestId="template-form-save"
      cancelTestId="template-form-cancel"
      failure={failure.message}
      failureTestId="template-form-error"
    >
      <div className="two-columns">
        <InputField
          label={t('templateAdmin.name')}
          id="template-name"
          required
          field={form.register('name')}
          error={errors.name}
        />
        <InputField
          label={t('templateAdmin.category')}
          id="template-category"
          field={form.register('category')}
          error={errors.category}
        />
      </div>
      <TextAreaField
        label={t('templateAdmin.description')}
        id="template-description"
        rows={4}
        field={form.register('description')}
        error={errors.description}
      />
      <CheckboxField
        label={t('templateAdmin.published')}
        field={form.register('published')}
        testId="template-published"
      />
    </FormDialog>
  );
}
