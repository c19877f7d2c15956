import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/Alert';
import { FormField } from '@/components/FormField';
import { Dialog } from '@/components/ui/Dialog';
import { errorMessage } from '@/lib/api-client';
import { useSaveCategory } from '@/features/block-admin/api/save-category';
import {
  categoryFormValues,
  categoryPayload,
  type CategoryFormError,
  type CategoryFormValues,
} from '@/features/block-admin/lib/block-form';
import type { LibraryCategory } from '@/features/block-admin/types';
import { toastFailure, toastOk } from '@/components/admin-toasts';

interface Props {
  /** null: a new category. */
  category: LibraryCategory | null;
  onClose: () => void;
}

/** Create or edit a category: name, icon (SVG text) and order. */
export function CategoryFormModal({ category, onClose }: Props) {
  const { t } = useTranslation();
  const save = useSaveCategory();
  const [values, setValues] = useState<CategoryFormValues>(() => categoryFormValues(category));
  const [error, setError] = useState<CategoryFormError | null>(null);
  const set = (key: keyof CategoryFormValues) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [key]: event.target.value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = categoryPayload(values);
    if ('error' in result) {
      setError(result.error);
      return;
    }
    setError(null);
    save.mutate(
      { ...(category ? { id: category.id } : {}), category: result.payload },
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
    <Dialog
      title={category ? t('blockAdmin.category.edit') : t('blockAdmin.category.new')}
      onClose={onClose}
      testId="category-form"
    >
      <form onSubmit={submit} className="form" noValidate>
        {save.isError && <Alert testId="category-form-error">{errorMessage(save.error)}</Alert>}
        {error && <Alert testId="category-form-invalid">{t(`blockAdmin.category.errors.${error}`)}</Alert>}
        <FormField label={t('blockAdmin.category.name')} id="category-name">
          <input id="category-name" value={values.name} onChange={set('name')} data-testid="category-name" />
        </FormField>
        <FormField label={t('blockAdmin.category.icon')} id="category-icon">
          <textarea
            id="category-icon"
            className="code-input"
            rows={4}
            value={values.icon}
            onChange={set('icon')}
            data-testid="category-icon"
          />
        </FormField>
        <FormField label={t('blockAdmin.order')} id="category-order">
          <input
            id="category-order"
            type="number"
            min={0}
            value={values.order}
            onChange={set('order')}
            data-testid="category-order"
          />
        </FormField>
        <div className="form-actions">
          <button type="button" className="button" onClick={onClose} data-testid="category-form-cancel">
            {t('common.cancel')}
          </button>
          <button
            type="submit"
            className="button button-primary"
            disabled={save.isPending}
            data-testid="category-form-save"
          >
            {t('common.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
