import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '@/app/paths';
import { Alert } from '@/components/Alert';
import { FormField } from '@/components/FormField';
import { Dialog } from '@/components/ui/Dialog';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { newProjectSchema } from '@/lib/validation';
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
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = newProjectSchema.safeParse({ name });
    if (!parsed.success) {
      setNameError(t(parsed.error.issues[0]?.message ?? 'validation.projectNameRequired'));
      return;
    }
    setNameError(undefined);
    create.mutate(
      { templateId: template.id, name: parsed.data.name },
      {
        onSuccess: (project) => void navigate(paths.project.build({ projectId: project.id })),
        onError: () => toast.error(t('common.error')),
      },
    );
  };

  return (
    <Dialog
      title={t('templatePreview.useTitle', { name: template.name })}
      onClose={onClose}
      testId="use-template"
    >
      <form onSubmit={submit} className="form" noValidate>
        {create.isError && <Alert testId="use-template-error">{errorMessage(create.error)}</Alert>}
        <FormField label={t('newProject.name')} id="use-template-name" error={nameError}>
          <input
            id="use-template-name"
            value={name}
            autoFocus
            onChange={(event) => setName(event.target.value)}
            data-testid="use-template-name"
          />
        </FormField>
        <div className="form-actions">
          <button type="button" className="button" onClick={onClose} data-testid="use-template-cancel">
            {t('common.cancel')}
          </button>
          <button
            type="submit"
            className="button button-primary"
            disabled={create.isPending}
            data-testid="use-template-submit"
          >
            {t('templatePreview.create')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
