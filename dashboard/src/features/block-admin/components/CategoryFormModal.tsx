import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { InputField, TextAreaField } from '@/components/FormControls';
import { FormDialog } from '@/components/FormDialog';
import { useFormFailure } from '@/lib/forms';
import { useSaveCategory } from '@/features/block-admin/api/save-category';
import {
  categoryFormSchema,
  categoryFormValues,
  type CategoryFormValues,
} from '@/features/block-admin/lib/block-form';
import type { CategoryPayload, LibraryCategory } from '@/features/block-admin/types';
import { toastFailure, toastOk } from '@/components/admin-toasts';

interface Props {
  /** null: a new category. */
  category: LibraryCategory | null;
  onClose: () => void;
}

const FIELDS = ['name', 'icon', 'order'] as const;

/** Create or edit a category: name, icon (SVG text) and order. */
export function CategoryFormModal({ category, onClose }: Props) {
  const { t } = useTranslation();
  const save = useSaveCategory();
  const form = useForm<CategoryFormValues, unknown, CategoryPayload>({
    resolver: zodResolver(categoryFormSchema),
    defaultValues: categoryFormValues(category),
  });
  const failure = useFormFailure(form, FIELDS);
  const { errors } = form.formState;

  const submit = (payload: CategoryPayload) => {
    failure.clear();
    save.mutate(
      { ...(category ? { id: category.id } : {}), category: payload },
      {
        onSuccess: () => {
          toastOk(t);
          onClose();
        },
        onError: (error) => {
          toastFailure(t, error);
          failure.report(error);
        },
      },
    );
  };

  return (
    <FormDialog
      title={category ? t('blockAdmin.category.edit') : t('blockAdmin.category.new')}
      onClose={onClose}
      testId="category-form"
      form={form}
      onValid={submit}
      saving={save.isPending}
      saveTestId="category-form-save"
      cancelTestId="category-form-cancel"
      failure={failure.message}
      failureTestId="category-form-error"
    >
      <InputField
        label={t('blockAdmin.category.name')}
        id="category-name"
        required
        field={form.register('name')}
        error={errors.name}
      />
      <TextAreaField
        label={t('blockAdmin.category.icon')}
        id="category-icon"
        className="code-input"
        rows={4}
        field={form.register('icon')}
        error={errors.icon}
      />
      <InputField
        label={t('blockAdmin.order')}
        id="category-order"
        type="number"
        min={0}
        field={form.register('order')}
        error={errors.order}
      />
    </FormDialog>
  );
}
