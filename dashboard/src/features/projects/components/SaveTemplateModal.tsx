import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { InputField } from '@/components/FormControls';
import { FormDialog } from '@/components/FormDialog';
import { RadioController, SelectController } from '@/components/SelectController';
import { toast } from '@/components/toast';
import { useZodForm } from '@/lib/forms';
import type { Project } from '@/lib/types';
import { saveTemplateSchema, type SaveTemplateValues } from '@/lib/validation';
import { useSaveTemplate } from '@/features/projects/api/save-template';
import { useTemplates } from '@/features/projects/api/get-templates';

/**
 * Admins: save the project as a new theme, or update an existing one with it (the server lets
 * only administrators write templates, and every template is theirs to update). Choosing the
 * template to update puts its name in the name field, to keep or change. A name already taken
 * is refused at the name field.
 */
export function SaveTemplateModal({ project, onClose }: { project: Project; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveTemplate();
  const templates = useTemplates();
  const zodForm = useZodForm(saveTemplateSchema, {
    defaultValues: { name: project.name, mode: 'new', templateId: null },
    serverFields: ['name', 'templateId'],
    serverFieldMap: { template_id: 'templateId' },
  });
  const { form, bind, submitTo } = zodForm;
  const mode = useWatch({ control: form.control, name: 'mode' });
  const existing = templates.data ?? [];

  const submit = (values: SaveTemplateValues) =>
    submitTo(
      save,
      { project_id: project.id, ...values },
      {
        onSuccess: () => {
          toast.success(t('template_id' in values ? 'templates.updated' : 'templates.saved'));
          onClose();
        },
      },
    );

  return (
    <FormDialog
      title={t('templates.saveTitle')}
      testId="save-template-modal"
      // Its success toast depends on the values sent, so not `saveWith`.
      form={{ ...zodForm, onValid: submit, saving: save.isPending, onClose }}
    >
      <RadioController
        control={form.control}
        name="mode"
        deps={['templateId']}
        label={t('templates.saveMode')}
        options={[
          { id: 'new', label: t('templates.saveNew'), testId: 'save-template-new' },
          {
            id: 'update',
            label: t('templates.saveUpdate'),
            isDisabled: existing.length === 0,
            testId: 'save-template-update',
          },
        ]}
        testId="save-template-mode"
      />
      {mode === 'update' && (
        <SelectController
          control={form.control}
          name="templateId"
          label={t('templates.toUpdate')}
          required
          options={existing.map((template) => ({ id: String(template.id), label: template.name }))}
          onChosen={(id) => {
            const chosen = existing.find((template) => String(template.id) === id);
            if (chosen) form.setValue('name', chosen.name, { shouldValidate: form.formState.isSubmitted });
          }}
          placeholder={t('templates.toUpdatePlaceholder')}
          testId="save-template-target"
        />
      )}
      <InputField label={t('templates.name')} id="template-name" autoFocus required {...bind('name')} />
    </FormDialog>
  );
}
