import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { InputField } from '@/components/FormControls';
import { FormDialog } from '@/components/FormDialog';
import { showToast } from '@/components/toast';
import { useFormFailure } from '@/lib/forms';
import { useSaveBusinessBlock } from '@/lib/business-blocks/save-business-block';
import type { BusinessBlock, SaveBusinessBlockInput } from '@/lib/business-blocks/types';
import {
  blockFormValues,
  businessBlockFormSchema,
  type BlockFormValues,
} from '@/features/business-library/lib/block-form';

interface Props {
  block: BusinessBlock;
  onClose: () => void;
}

const FIELDS = ['name', 'keywords', 'image', 'order'] as const;

/** Edits a business block's name, keywords, thumbnail and order (the server keeps its code). */
export function BusinessBlockFormModal({ block, onClose }: Props) {
  const { t } = useTranslation();
  const save = useSaveBusinessBlock();
  const form = useForm<BlockFormValues, unknown, SaveBusinessBlockInput>({
    resolver: zodResolver(businessBlockFormSchema),
    defaultValues: blockFormValues(block),
  });
  const failure = useFormFailure(form, FIELDS);
  const { errors } = form.formState;

  const submit = (payload: SaveBusinessBlockInput) => {
    failure.clear();
    save.mutate(
      { id: block.id, block: payload },
      {
        onSuccess: (saved) => {
          showToast(t('businessLibrary.saved', { name: saved.name }), 'success');
          onClose();
        },
        onError: failure.report,
      },
    );
  };

  return (
    <FormDialog
      title={t('businessLibrary.editTitle', { name: block.name })}
      onClose={onClose}
      testId="business-block-form"
      form={form}
      onValid={submit}
      saving={save.isPending}
      saveTestId="business-block-save"
      failure={failure.message}
      failureTestId="business-block-form-error"
    >
      <InputField
        label={t('businessLibrary.name')}
        id="business-block-name"
        required
        field={form.register('name')}
        error={errors.name}
      />
      <InputField
        label={t('businessLibrary.keywords')}
        id="business-block-keywords"
        description={t('businessLibrary.keywordsHint')}
        field={form.register('keywords')}
        error={errors.keywords}
      />
      <InputField
        label={t('businessLibrary.image')}
        id="business-block-image"
        field={form.register('image')}
        error={errors.image}
      />
      <InputField
        label={t('businessLibrary.order')}
        id="business-block-order"
        type="number"
        min={0}
        field={form.register('order')}
        error={errors.order}
      />
    </FormDialog>
  );
}
