import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '@/components/ConfirmDialog';
import { Alert } from '@/components/Alert';
import { errorMessage } from '@/lib/api-client';
import { useBlockScreenshot } from '@/features/block-admin/api/block-screenshot';
import { useDeleteBlock } from '@/features/block-admin/api/delete-block';
import { useMoveBlock } from '@/features/block-admin/api/move-block';
import { useReorderBlock } from '@/features/block-admin/api/reorder-block';
import type { LibraryBlock, LibraryCategory, ScreenshotOptions } from '@/features/block-admin/types';
import { OrderInput } from './OrderInput';
import { toastOutcome, toastFailure, toastOk } from '@/components/admin-toasts';

interface Props {
  block: LibraryBlock;
  categories: LibraryCategory[];
  screenshot: ScreenshotOptions;
  onEdit: (block: LibraryBlock) => void;
  onExport: (block: LibraryBlock) => void;
}

/** One library block: thumbnail, name, category select, order, and its actions. */
export function BlockRow({ block, categories, screenshot, onEdit, onExport }: Props) {
  const { t } = useTranslation();
  const [confirmDialog, askConfirm] = useConfirm();
  const move = useMoveBlock();
  const reorder = useReorderBlock();
  const remove = useDeleteBlock();
  const shot = useBlockScreenshot();
  const [thumbnail, setThumbnail] = useState<string | null>(null);

  useEffect(
    () => () => {
      if (thumbnail) URL.revokeObjectURL(thumbnail);
    },
    [thumbnail],
  );

  const generate = () =>
    shot.mutate(
      { id: block.id, options: screenshot },
      {
        onSuccess: (image) => {
          setThumbnail(URL.createObjectURL(image));
          toastOk(t);
        },
        onError: (failure) => toastFailure(t, failure),
      },
    );

  const image = thumbnail ?? (block.image || null);
  return (
    <tr data-testid={`block-row-${block.id}`}>
      <td className="block-admin-thumb">
        {image ? (
          <img src={image} alt={block.name} data-testid="block-thumbnail" />
        ) : (
          <span className="muted small">—</span>
        )}
        {shot.isError && (
          <Alert testId="block-screenshot-error">
            {t('blockAdmin.block.screenshotFailed')} {errorMessage(shot.error)}
          </Alert>
        )}
      </td>
      <td>
        <strong>{block.name}</strong>
        {block.keywords && <div className="muted small">{block.keywords}</div>}
      </td>
      <td>
        <select
          aria-label={t('blockAdmin.block.category')}
          value={block.category_id}
          disabled={move.isPending}
          data-testid="block-move"
          onChange={(event) =>
            move.mutate({ id: block.id, categoryId: Number(event.target.value) }, toastOutcome(t))
          }
        >
          {categories.map((category) => (
            <option key={category.id} value={category.id}>
              {category.name}
            </option>
          ))}
        </select>
      </td>
      <td>
        <OrderInput
          value={block.order}
          label={t('blockAdmin.order')}
          testId="block-reorder"
          disabled={reorder.isPending}
          onCommit={(order) => reorder.mutate({ id: block.id, order }, toastOutcome(t))}
        />
      </td>
      <td className="actions-cell">
        <div className="button-row">
          <button
            type="button"
            className="button button-small"
            onClick={() => onEdit(block)}
            data-testid="block-edit"
          >
            {t('blockAdmin.edit')}
          </button>
          <button
            type="button"
            className="button button-small"
            onClick={() => onExport(block)}
            data-testid="block-export"
          >
            {t('blockAdmin.export.one')}
          </button>
          <button
            type="button"
            className="button button-small"
            disabled={shot.isPending}
            onClick={generate}
            data-testid="block-screenshot"
          >
            {t('blockAdmin.block.thumbnail')}
          </button>
          <button
            type="button"
            className="button button-small button-danger-ghost"
            disabled={remove.isPending}
            data-testid="block-delete"
            onClick={() => {
              void askConfirm({
                title: t('kit.confirm.deleteBlock', { name: block.name }),
                message: t('blockAdmin.block.confirmDelete'),
                confirmLabel: t('common.delete'),
                destructive: true,
              }).then((confirmed) => {
                if (confirmed) remove.mutate(block.id, toastOutcome(t));
              });
            }}
          >
            {t('common.delete')}
          </button>
        </div>
        {confirmDialog}
      </td>
    </tr>
  );
}

/** The blocks table, shared by categories and search results. */
export function BlockTable(props: Omit<Props, 'block'> & { blocks: LibraryBlock[] }) {
  const { t } = useTranslation();
  const { blocks, ...rest } = props;
  if (blocks.length === 0) return <p className="empty muted">{t('blockAdmin.block.none')}</p>;
  return (
    <table className="data-table">
      <thead>
        <tr>
          <th>{t('blockAdmin.block.thumbnail')}</th>
          <th>{t('blockAdmin.block.name')}</th>
          <th>{t('blockAdmin.block.category')}</th>
          <th>{t('blockAdmin.order')}</th>
          <th>{t('common.actions')}</th>
        </tr>
      </thead>
      <tbody>
        {blocks.map((block) => (
          <BlockRow key={block.id} block={block} {...rest} />
        ))}
      </tbody>
    </table>
  );
}
