import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { InputField, SelectField, TextAreaField } from '@/components/FormControls';
import { FormDialog } from '@/components/FormDialog';
import { useFormFailure } from '@/lib/forms';
import { useSaveBlock } from '@/features/block-admin/api/save-block';
import {
  blockFormSchema,
  blockFormValues,
  type BlockFormValues,
} from '@/features/block-admin/lib/block-form';
import type { BlockPayload, LibraryBlock, LibraryCategory } from '@/features/block-admin/types';
import { toastFailure, toastOk } from '@/components/admin-toasts';

interface Props {
  /** null: a new block. */
  block: LibraryBlock | null;
  categories: LibraryCategory[];
  onClose: () => void;
}

const FIELDS = ['name', 'categoryId', 'keywords', 'image', 'template', 'css', 'js', 'order'] as const;

/** Create or edit a library block: name, category, keywords, image URL, HTML/CSS/JS and order. */
export function BlockFormModal({ block, categories, onClose }: Props) {
  const { t } = useTranslation();
  const save = useSaveBlock();
  const form = useForm<BlockFormValues, unknown, BlockPayload>({
    resolver: zodResolver(blockFormSchema),
    defaultValues: blockFormValues(block, categories[0]?.id ?? null),
  });
  const failure = useFormFailure(form, FIELDS, { category_id: 'categoryId' });
  const { errors } = form.formState;

  const submit = (payload: BlockPayload) => {
    failure.clear();
    save.mutate(
      { ...(block ? { id: block.id } : {}), block: payload },
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
      title={block ? t('blockAdmin.block.edit') : t('blockAdmin.block.new')}
      onClose={onClose}
      testId="block-form"
      form={form}
      onValid={submit}
      saving={save.isPending}
      saveTestId="block-form-save"
      cancelTestId="block-form-cancel"
      failure={failure.message}
      failureTestId="block-form-error"
    >
      <div className="two-columns">
        <InputField
          label={t('blockAdmin.block.name')}
          id="block-name"
          required
          field={form.register('name')}
          error={errors.name}
        />
        <SelectField
          label={t('blockAdmin.block.category')}
          id="block-category"
          required
          field={form.register('categoryId')}
          error={errors.categoryId}
        >
          {categories.map((category) => (
            <option key={category.id} value={category.id}>
              {category.name}
            </option>
          ))}
        </SelectField>
        <InputField
          label={t('blockAdmin.block.keywords')}
          id="block-keywords"
          field={form.register('keywords')}
          error={errors.keywords}
        />
        <InputField
          label={t('blockAdmin.block.image')}
          id="block-image"
          type="url"
          field={form.register('image')}
          error={errors.image}
        />
      </div>
      <TextAreaField
        label={t('blockAdmin.block.html')}
        id="block-template"
        required
        className="code-input"
        rows={10}
        field={form.register('template')}
        error={errors.template}
      />
      <TextAreaField
        label={t('blockAdmin.block.css')}
        id="block-css"
        className="code-input"
        rows={5}
        field={form.register('css')}
        error={errors.css}
      />
      <TextAreaField
        label={t('blockAdmin.block.js')}
        id="block-js"
        className="code-input"
        rows={5}
        field={form.register('js')}
        error={errors.js}
      />
      <InputField
        label={t('blockAdmin.order')}
        id="block-order"
        type="number"
        min={0}
        field={form.register('order')}
        error={errors.order}
      />
    </FormDialog>
  );
}
