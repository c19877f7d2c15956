import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/Alert';
import { FormField } from '@/components/FormField';
import { Dialog } from '@/components/ui/Dialog';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import type { Project } from '@/lib/types';
import { useSaveTemplate } from '@/features/projects/api/save-template';

/** Admins: save the project as a theme. */
export function SaveTemplateModal({ project, onClose }: { project: Project; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveTemplate();
  const [name, setName] = useState(project.name);
  const [error, setError] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError(t('validation.templateNameRequired'));
      return;
    }
    save.mutate(
      { project_id: project.id, name: name.trim() },
      {
        onSuccess: () => {
          toast.success(t('templates.saved'));
          onClose();
        },
      },
    );
  };

  return (
    <Dialog title={t('templates.saveTitle')} onClose={onClose} testId="save-template-modal">
      <form onSubmit={submit} noValidate className="form">
        {save.isError && <Alert>{errorMessage(save.error)}</Alert>}
        <FormField label={t('templates.name')} id="template-name" error={error}>
          <input
            id="template-name"
            value={name}
            autoFocus
            onChange={(event) => setName(event.target.value)}
          />
        </FormField>
        <div className="form-actions">
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={save.isPending}>
            {t('common.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
