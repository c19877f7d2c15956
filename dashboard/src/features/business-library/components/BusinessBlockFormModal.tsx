import { useTranslation } from 'react-i18next';
import { InputField, OrderField } from '@/components/FormControls';
import { FormDialog } from '@/components/FormDialog';
import { showToast } from '@/components/toast';
import { useZodForm } from '@/lib/forms';
import { useSaveBusinessBlock } from '@/lib/business-blocks/save-business-block';
import type { BusinessBlock, SaveBusinessBlockInput } from '@/lib/types';
import { blockFormValues, businessBlockFormSchema } from '@/features/business-library/lib/block-form';

interface Props {
  block: BusinessBlock;
  onClose: () => void;
}

/** Edits a business block's name, keywords, thumbnail and order (the server keeps its code). */
export function BusinessBlockFormModal({ block, onClose }: Props) {
  const { t } = useTranslation();
  const save = useSaveBusinessBlock();
  const { bind, saveWith } = useZodForm(businessBlockFormSchema, {
    defaultValues: blockFormValues(block),
    serverFields: ['name', 'keywords', 'image', 'order'],
  });

  const dialog = saveWith(
    save,
    (payload: SaveBusinessBlockInput) => ({ id: block.id, block: payload }),
    onClose,
    { onSuccess: (saved) => showToast(t('businessLibrary.saved', { name: saved.name }), 'success') },
  );

  return (
    <FormDialog
      title={t('businessLibrary.editTitle', { name: block.name })}
      testId="business-block-form"
      form={dialog}
    >
      <InputField label={t('businessLibrary.name')} id="business-block-name" required {...bind('name')} />
      <InputField
        label={t('businessLibrary.keywords')}
        id="business-block-keywords"
        description={t('businessLibrary.keywordsHint')}
        {...bind('keywords')}
      />
      <InputField label={t('businessLibrary.image')} id="business-block-image" {...bind('image')} />
      <OrderField label={t('businessLibrary.order')} id="business-block-order" {...bind('order')} />
    </FormDialog>
  );
}
