import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/Alert';
import { FormField } from '@/components/FormField';
import { Dialog } from '@/components/ui/Dialog';
import { errorMessage } from '@/lib/api-client';
import { useSaveBlock } from '@/features/block-admin/api/save-block';
import {
  blockFormValues,
  blockPayload,
  type BlockFormError,
  type BlockFormValues,
} from '@/features/block-admin/lib/block-form';
import type { LibraryBlock, LibraryCategory } from '@/features/block-admin/types';
import { toastFailure, toastOk } from '@/components/admin-toasts';

interface Props {
  /** null: a new block. */
  block: LibraryBlock | null;
  categories: LibraryCategory[];
  onClose: () => void;
}

/** Create or edit a library block: name, category, keywords, image URL, HTML/CSS/JS and order. */
export function BlockFormModal({ block, categories, onClose }: Props) {
  const { t } = useTranslation();
  const save = useSaveBlock();
  const [values, setValues] = useState<BlockFormValues>(() =>
    blockFormValues(block, categories[0]?.id ?? null),
  );
  const [error, setError] = useState<BlockFormError | null>(null);
  const set = (key: keyof BlockFormValues) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [key]: event.target.value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = blockPayload(values);
    if ('error' in result) {
      setError(result.error);
      return;
    }
    setError(null);
    save.mutate(
      { ...(block ? { id: block.id } : {}), block: result.payload },
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
      title={block ? t('blockAdmin.block.edit') : t('blockAdmin.block.new')}
      onClose={onClose}
      testId="block-form"
    >
      <form onSubmit={submit} className="form" noValidate>
        {save.isError && <Alert testId="block-form-error">{errorMessage(save.error)}</Alert>}
        {error && <Alert testId="block-form-invalid">{t(`blockAdmin.block.errors.${error}`)}</Alert>}
        <div className="two-columns">
          <FormField label={t('blockAdmin.block.name')} id="block-name">
            <input id="block-name" value={values.name} onChange={set('name')} data-testid="block-name" />
          </FormField>
          <FormField label={t('blockAdmin.block.category')} id="block-category">
            <select
              id="block-category"
              value={values.categoryId}
              onChange={set('categoryId')}
              data-testid="block-category"
            >
              {categories.map((category) => (
                <option key={category.id} value={category.id}>
                  {category.name}
                </option>
              ))}
            </select>
          </FormField>
          <FormField label={t('blockAdmin.block.keywords')} id="block-keywords">
            <input
              id="block-keywords"
              value={values.keywords}
              onChange={set('keywords')}
              data-testid="block-keywords"
            />
          </FormField>
          <FormField label={t('blockAdmin.block.image')} id="block-image">
            <input
              id="block-image"
              type="url"
              value={values.image}
              onChange={set('image')}
              data-testid="block-image"
            />
          </FormField>
        </div>
        <FormField label={t('blockAdmin.block.html')} id="block-template">
          <textarea
            id="block-template"
            className="code-input"
            rows={10}
            value={values.template}
            onChange={set('template')}
            data-testid="block-template"
          />
        </FormField>
        <FormField label={t('blockAdmin.block.css')} id="block-css">
          <textarea
            id="block-css"
            className="code-input"
            rows={5}
            value={values.css}
            onChange={set('css')}
            data-testid="block-css"
          />
        </FormField>
        <FormField label={t('blockAdmin.block.js')} id="block-js">
          <textarea
            id="block-js"
            className="code-input"
            rows={5}
            value={values.js}
            onChange={set('js')}
            data-testid="block-js"
          />
        </FormField>
        <FormField label={t('blockAdmin.order')} id="block-order">
          <input
            id="block-order"
            type="number"
            min={0}
            value={values.order}
            onChange={set('order')}
            data-testid="block-order"
          />
        </FormField>
        <div className="form-actions">
          <button type="button" className="button" onClick={onClose} data-testid="block-form-cancel">
            {t('common.cancel')}
          </button>
          <button
            type="submit"
            className="button button-primary"
            disabled={save.isPending}
            data-testid="block-form-save"
          >
            {t('common.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
