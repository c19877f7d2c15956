import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/Alert';
import { FormField } from '@/components/FormField';
import { Dialog } from '@/components/ui/Dialog';
import { showToast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { useSaveBusinessBlock } from '@/lib/business-blocks/save-business-block';
import type { BusinessBlock } from '@/lib/business-blocks/types';
import {
  blockFormValues,
  blockPayload,
  type BlockFormError,
  type BlockFormValues,
} from '@/features/business-library/lib/block-form';

interface Props {
  block: BusinessBlock;
  onClose: () => void;
}

/** Edits a business block's name, keywords, thumbnail and order (the server keeps its code). */
export function BusinessBlockFormModal({ block, onClose }: Props) {
  const { t } = useTranslation();
  const save = useSaveBusinessBlock();
  const [values, setValues] = useState<BlockFormValues>(() => blockFormValues(block));
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
      { id: block.id, block: result.payload },
      {
        onSuccess: (saved) => {
          showToast(t('businessLibrary.saved', { name: saved.name }), 'success');
          onClose();
        },
      },
    );
  };

  return (
    <Dialog
      title={t('businessLibrary.editTitle', { name: block.name })}
      onClose={onClose}
      testId="business-block-form"
    >
      <form onSubmit={submit} className="form" noValidate>
        {save.isError && <Alert testId="business-block-form-error">{errorMessage(save.error)}</Alert>}
        <FormField
          label={t('businessLibrary.name')}
          id="business-block-name"
          error={error === 'nameRequired' ? t('businessLibrary.nameRequired') : undefined}
        >
          <input
            id="business-block-name"
            value={values.name}
            onChange={set('name')}
            data-testid="business-block-name"
          />
        </FormField>
        <FormField
          label={t('businessLibrary.keywords')}
          id="business-block-keywords"
          description={t('businessLibrary.keywordsHint')}
        >
          <input
            id="business-block-keywords"
            value={values.keywords}
            onChange={set('keywords')}
            data-testid="business-block-keywords"
          />
        </FormField>
        <FormField label={t('businessLibrary.image')} id="business-block-image">
          <input
            id="business-block-image"
            value={values.image}
            onChange={set('image')}
            data-testid="business-block-image"
          />
        </FormField>
        <FormField
          label={t('businessLibrary.order')}
          id="business-block-order"
          error={error === 'orderInvalid' ? t('businessLibrary.orderInvalid') : undefined}
        >
          <input
            id="business-block-order"
            type="number"
            min={0}
            value={values.order}
            onChange={set('order')}
            data-testid="business-block-order"
          />
        </FormField>
        <div className="button-row">
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button
            type="submit"
            className="button button-primary"
            disabled={save.isPending}
            data-testid="business-block-save"
          >
            {t('common.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
