import { useTranslation } from 'react-i18next';
import { InputField } from '@/components/FormControls';
import { FormDialog } from '@/components/FormDialog';
import { toast } from '@/components/toast';
import { useZodForm } from '@/lib/forms';
import type { Project } from '@/lib/types';
import { saveTemplateSchema } from '@/lib/validation';
import { useSaveTemplate } from '@/features/projects/api/save-template';

/** Admins: save the project as a theme. A name already taken is refused at the name field. */
export function SaveTemplateModal({ project, onClose }: { project: Project; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveTemplate();
  const zodForm = useZodForm(saveTemplateSchema, {
    defaultValues: { name: project.name },
    serverFields: ['name'],
  });
  const { failure, bind } = zodForm;

  const submit = ({ name }: { name: string }) => {
    failure.clear();
    save.mutate(
      { project_id: project.id, name },
      {
        onSuccess: () => {
          toast.success(t('templates.saved'));
          onClose();
        },
        onError: failure.report,
      },
    );
  };

  return (
    <FormDialog
      title={t('templates.saveTitle')}
      onClose={onClose}
      testId="save-template-modal"
      zodForm={zodForm}
      onValid={submit}
      saving={save.isPending}
    >
      <InputField label={t('templates.name')} id="template-name" autoFocus required {...bind('name')} />
    </FormDialog>
  );
}
