import { useTranslation } from 'react-i18next';
import { CodeField, InputField, OrderField, SelectField } from '@/components/FormControls';
import { FormDialog } from '@/components/FormDialog';
import { toastOutcome } from '@/components/admin-toasts';
import { useZodForm } from '@/lib/forms';
import { useSaveBlock } from '@/features/block-admin/api/save-block';
import { blockFormSchema, blockFormValues } from '@/features/block-admin/lib/block-form';
import type { LibraryBlock, LibraryCategory } from '@/lib/types';
import type { BlockPayload } from '@/features/block-admin/types';

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
  const { bind, saveWith } = useZodForm(blockFormSchema, {
    defaultValues: blockFormValues(block, categories[0]?.id ?? null),
    serverFields: ['name', 'keywords', 'image', 'template', 'css', 'js', 'order'],
    serverFieldMap: { category_id: 'categoryId' },
  });

  const dialog = saveWith(
    save,
    (payload: BlockPayload) => ({ ...(block ? { id: block.id } : {}), block: payload }),
    onClose,
    toastOutcome(t),
  );

  /** The block's HTML, CSS and JS: code editors of a few rows. */
  const code = (name: 'template' | 'css' | 'js', label: string, rows: number) => (
    <CodeField
      label={label}
      id={`block-${name}`}
      required={name === 'template'}
      rows={rows}
      {...bind(name)}
    />
  );

  return (
    <FormDialog
      title={block ? t('blockAdmin.block.edit') : t('blockAdmin.block.new')}
      testId="block-form"
      form={dialog}
    >
      <div className="two-columns">
        <InputField label={t('blockAdmin.block.name')} id="block-name" required {...bind('name')} />
        <SelectField
          label={t('blockAdmin.block.category')}
          id="block-category"
          required
          {...bind('categoryId')}
        >
          {categories.map((category) => (
            <option key={category.id} value={category.id}>
              {category.name}
            </option>
          ))}
        </SelectField>
        <InputField label={t('blockAdmin.block.keywords')} id="block-keywords" {...bind('keywords')} />
        <InputField label={t('blockAdmin.block.image')} id="block-image" type="url" {...bind('image')} />
      </div>
      {code('template', t('blockAdmin.block.html'), 10)}
      {code('css', t('blockAdmin.block.css'), 5)}
      {code('js', t('blockAdmin.block.js'), 5)}
      <OrderField label={t('blockAdmin.order')} id="block-order" {...bind('order')} />
    </FormDialog>
  );
}
