import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '@/app/paths';
import { InputField } from '@/components/FormControls';
import { FormDialog } from '@/components/FormDialog';
import { toast } from '@/components/toast';
import { useZodForm } from '@/lib/forms';
import { useTemplateSchema } from '@/lib/validation';
import { useCreateFromTemplate } from '@/lib/projects/use-template';
import type { TemplateView } from '@/features/template-admin/types';

interface Props {
  template: TemplateView;
  onClose: () => void;
}

/** "Use this template": a project name, as on the new project screen, then the new project. */
export function UseTemplateModal({ template, onClose }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateFromTemplate();
  const { bind, saveWith } = useZodForm(useTemplateSchema, {
    defaultValues: { name: '' },
    serverFields: ['name'],
  });

  const dialog = saveWith(
    create,
    ({ name }: { name: string }) => ({ templateId: template.id, name }),
    onClose,
    {
      onSuccess: (project) => void navigate(paths.project.build({ projectId: project.id })),
      onError: () => toast.error(t('common.error')),
    },
  );

  return (
    <FormDialog
      title={t('templatePreview.useTitle', { name: template.name })}
      testId="use-template"
      form={dialog}
      saveTestId="use-template-submit"
      saveLabel={t('templatePreview.create')}
    >
      <InputField label={t('newProject.name')} id="use-template-name" autoFocus required {...bind('name')} />
    </FormDialog>
  );
}
