import { useTranslation } from 'react-i18next';
import { useConfirm } from '@/components/ConfirmDialog';
import { useDeleteCategory } from '@/features/block-admin/api/delete-category';
import { useReorderCategory } from '@/features/block-admin/api/reorder-category';
import { svgImageSrc } from '@/features/block-admin/lib/block-form';
import type { LibraryCategory } from '@/lib/types';
import { BlockTable, type BlockTableSettings } from './BlockTable';
import { OrderInput } from './OrderInput';
import { toastOutcome } from '@/components/admin-toasts';
import { ActionButton } from '@/components/ActionButton';
import { DeleteButton } from '@/components/ItemButtons';

interface Props {
  category: LibraryCategory;
  onEdit: (category: LibraryCategory) => void;
  /** Its blocks' table: as the screen's other block tables. */
  table: BlockTableSettings;
}

/** A category: icon, name, order, edit, delete (only when it has no blocks), and its blocks. */
export function CategorySection({ category, onEdit, table }: Props) {
  const { t } = useTranslation();
  const [confirmDialog, askConfirm] = useConfirm();
  const reorder = useReorderCategory();
  const remove = useDeleteCategory();
  const icon = svgImageSrc(category.icon);
  const empty = category.blocks.length === 0;
  const sorted = [...category.blocks].sort((a, b) => a.order - b.order || a.id - b.id);
  return (
    <section className="card table-card" data-testid={`category-${category.id}`}>
      <header className="page-header">
        <h2 className="section-title">
          {icon && <img src={icon} alt="" width={20} height={20} data-testid="category-icon-image" />}{' '}
          {category.name} <span className="badge badge-muted">{category.blocks.length}</span>
        </h2>
        <div className="button-row">
          <OrderInput
            value={category.order}
            label={t('blockAdmin.order')}
            testId="category-reorder"
            disabled={reorder.isPending}
            onCommit={(order) => reorder.mutate({ id: category.id, order }, toastOutcome(t))}
          />
          <ActionButton size="small" onClick={() => onEdit(category)} testId="category-edit">
            {t('blockAdmin.edit')}
          </ActionButton>
          <DeleteButton
            disabled={!empty || remove.isPending}
            title={empty ? undefined : t('blockAdmin.category.notEmpty')}
            testId="category-delete"
            onDelete={() => {
              void askConfirm({
                title: t('kit.confirm.deleteCategory', { name: category.name }),
                message: t('blockAdmin.category.confirmDelete'),
                confirmLabel: t('common.delete'),
                destructive: true,
              }).then((confirmed) => {
                if (confirmed) remove.mutate(category.id, toastOutcome(t));
              });
            }}
          />
        </div>
      </header>
      <BlockTable blocks={sorted} label={category.name} {...table} />
      {confirmDialog}
    </section>
  );
}
