import { useTranslation } from 'react-i18next';
import { CodeField, InputField, OrderField } from '@/components/FormControls';
import { FormDialog } from '@/components/FormDialog';
import { toastOutcome } from '@/components/admin-toasts';
import { useZodForm } from '@/lib/forms';
import { useSaveCategory } from '@/features/block-admin/api/save-category';
import { categoryFormSchema, categoryFormValues } from '@/features/block-admin/lib/block-form';
import type { LibraryCategory } from '@/lib/types';
import type { CategoryPayload } from '@/features/block-admin/types';

interface Props {
  /** null: a new category. */
  category: LibraryCategory | null;
  onClose: () => void;
}

/** Create or edit a category: name, icon (SVG text) and order. */
export function CategoryFormModal({ category, onClose }: Props) {
  const { t } = useTranslation();
  const save = useSaveCategory();
  const { bind, saveWith } = useZodForm(categoryFormSchema, {
    defaultValues: categoryFormValues(category),
    serverFields: ['name', 'icon', 'order'],
  });

  const dialog = saveWith(
    save,
    (payload: CategoryPayload) => ({ ...(category ? { id: category.id } : {}), category: payload }),
    onClose,
    toastOutcome(t),
  );

  return (
    <FormDialog
      title={category ? t('blockAdmin.category.edit') : t('blockAdmin.category.new')}
      testId="category-form"
      form={dialog}
    >
      <InputField label={t('blockAdmin.category.name')} id="category-name" required {...bind('name')} />
      <CodeField label={t('blockAdmin.category.icon')} id="category-icon" rows={4} {...bind('icon')} />
      <OrderField label={t('blockAdmin.order')} id="category-order" {...bind('order')} />
    </FormDialog>
  );
}
