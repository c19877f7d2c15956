import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/Alert';
import { FormField } from '@/components/FormField';
import { Dialog } from '@/components/ui/Dialog';
import { errorMessage } from '@/lib/api-client';
import { toastFailure, toastOk } from '@/components/admin-toasts';
import { useSaveTemplateInfo } from '@/features/template-admin/api/save-template-info';
import type { TemplateView } from '@/features/template-admin/types';

interface Props {
  template: TemplateView;
  onClose: () => void;
}

/** Edit a template's name, category, description and published flag ('1' / '0'). */
export function TemplateFormModal({ template, onClose }: Props) {
  const { t } = useTranslation();
  const save = useSaveTemplateInfo();
  const [name, setName] = useState(template.name);
  const [category, setCategory] = useState(template.category);
  const [description, setDescription] = useState(template.description);
  const [published, setPublished] = useState(template.is_published === '1');
  const [nameError, setNameError] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setNameError(t('validation.templateNameRequired'));
      return;
    }
    setNameError(undefined);
    save.mutate(
      {
        id: template.id,
        template: {
          name: name.trim(),
          category: category.trim(),
          description,
          is_published: published ? '1' : '0',
        },
      },
      {
        onSuccess: () => {
          toastOk(t);
          onClose();
        },
        onError: (failure) => toastFailure(t, failure),
      },
    );
  };

  return (
    <Dialog title={t('templateAdmin.editTitle')} onClose={onClose} testId="template-form">
      <form onSubmit={submit} className="form" noValidate>
        {save.isError && <Alert testId="template-form-error">{errorMessage(save.error)}</Alert>}
        <div className="two-columns">
          <FormField label={t('templateAdmin.name')} id="template-name" error={nameError}>
            <input
              id="template-name"
              value={name}
              onChange={(event) => setName(event.target.value)}
              data-testid="template-name"
            />
          </FormField>
          <FormField label={t('templateAdmin.category')} id="template-category">
            <input
              id="template-category"
              value={category}
              onChange={(event) => setCategory(event.target.value)}
              data-testid="template-category"
            />
          </FormField>
        </div>
        <FormField label={t('templateAdmin.description')} id="template-description">
          <textarea
            id="template-description"
            rows={4}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            data-testid="template-description"
          />
        </FormField>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={published}
            onChange={(event) => setPublished(event.target.checked)}
            data-testid="template-published"
          />{' '}
          {t('templateAdmin.published')}
        </label>
        <div className="form-actions">
          <button type="button" className="button" onClick={onClose} data-testid="template-form-cancel">
            {t('common.cancel')}
          </button>
          <button
            type="submit"
            className="button button-primary"
            disabled={save.isPending}
            data-testid="template-form-save"
          >
            {t('common.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
