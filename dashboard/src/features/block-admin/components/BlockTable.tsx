import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '@/components/ConfirmDialog';
import { Alert } from '@/components/Alert';
import { DataTable, type DataColumn } from '@/components/DataTable';
import { errorMessage } from '@/lib/api-client';
import { useBlockScreenshot } from '@/features/block-admin/api/block-screenshot';
import { useDeleteBlock } from '@/features/block-admin/api/delete-block';
import { useMoveBlock } from '@/features/block-admin/api/move-block';
import { useReorderBlock } from '@/features/block-admin/api/reorder-block';
import type { LibraryBlock, LibraryCategory } from '@/lib/types';
import type { ScreenshotOptions } from '@/features/block-admin/types';
import { OrderInput } from './OrderInput';
import { toastOutcome, toastFailure, toastOk } from '@/components/admin-toasts';
import { ActionButton } from '@/components/ActionButton';
import { DeleteButton } from '@/components/ItemButtons';

/** What every block table of the screen shares: the category choices, thumbnails' size, edit and export. */
export interface BlockTableSettings {
  categories: LibraryCategory[];
  screenshot: ScreenshotOptions;
  onEdit: (block: LibraryBlock) => void;
  onExport: (block: LibraryBlock) => void;
}

interface Props extends BlockTableSettings {
  blocks: LibraryBlock[];
  /** Accessible name of the table (its category, or the search). */
  label?: string;
}

/** The category select of a block: moving it stores at once. */
function CategoryCell({ block, categories }: { block: LibraryBlock; categories: LibraryCategory[] }) {
  const { t } = useTranslation();
  const move = useMoveBlock();
  return (
    <select
      aria-label={t('blockAdmin.block.category')}
      value={block.category_id ?? ''}
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
  );
}

function OrderCell({ block }: { block: LibraryBlock }) {
  const { t } = useTranslation();
  const reorder = useReorderBlock();
  return (
    <OrderInput
      value={block.order}
      label={t('blockAdmin.order')}
      testId="block-reorder"
      disabled={reorder.isPending}
      onCommit={(order) => reorder.mutate({ id: block.id, order }, toastOutcome(t))}
    />
  );
}

/** Edit, export, a new thumbnail (shown in the row at once) and delete after confirmation. */
function ActionsCell({
  block,
  screenshot,
  onEdit,
  onExport,
  onThumbnail,
}: Omit<Props, 'blocks' | 'categories' | 'label'> & {
  block: LibraryBlock;
  onThumbnail: (url: string) => void;
}) {
  const { t } = useTranslation();
  const [confirmDialog, askConfirm] = useConfirm();
  const remove = useDeleteBlock();
  const shot = useBlockScreenshot();
  const generate = () =>
    shot.mutate(
      { id: block.id, options: screenshot },
      {
        onSuccess: (image) => {
          onThumbnail(URL.createObjectURL(image));
          toastOk(t);
        },
        onError: (failure) => toastFailure(t, failure),
      },
    );
  return (
    <>
      <div className="button-row">
        <ActionButton size="small" onClick={() => onEdit(block)} testId="block-edit">
          {t('blockAdmin.edit')}
        </ActionButton>
        <ActionButton size="small" onClick={() => onExport(block)} testId="block-export">
          {t('blockAdmin.export.one')}
        </ActionButton>
        <ActionButton size="small" disabled={shot.isPending} onClick={generate} testId="block-screenshot">
          {t('blockAdmin.block.thumbnail')}
        </ActionButton>
        <DeleteButton
          disabled={remove.isPending}
          testId="block-delete"
          onDelete={() => {
            void askConfirm({
              title: t('kit.confirm.deleteBlock', { name: block.name }),
              message: t('blockAdmin.block.confirmDelete'),
              confirmLabel: t('common.delete'),
              destructive: true,
            }).then((confirmed) => {
              if (confirmed) remove.mutate(block.id, toastOutcome(t));
            });
          }}
        />
      </div>
      {shot.isError && (
        <Alert testId="block-screenshot-error">
          {t('blockAdmin.block.screenshotFailed')} {errorMessage(shot.error)}
        </Alert>
      )}
      {confirmDialog}
    </>
  );
}

/**
 * The blocks table, shared by categories and search results: thumbnail, name, category select,
 * order, and the actions. The library is answered whole in its stored order (no sort parameter),
 * and has no bulk action: no sortable headers, no selection.
 */
export function BlockTable({ blocks, categories, screenshot, onEdit, onExport, label }: Props) {
  const { t } = useTranslation();
  // Thumbnails captured here, shown until the page is left (the stored one may keep its URL).
  const [captured, setCaptured] = useState<Record<number, string>>({});
  const urls = useRef<string[]>([]);
  useEffect(
    () => () => {
      for (const url of urls.current) URL.revokeObjectURL(url);
    },
    [],
  );
  const keep = (id: number, url: string) => {
    urls.current.push(url);
    setCaptured((current) => ({ ...current, [id]: url }));
  };

  if (blocks.length === 0) return <p className="empty muted">{t('blockAdmin.block.none')}</p>;

  const columns: DataColumn<LibraryBlock>[] = [
    {
      id: 'thumbnail',
      header: () => t('blockAdmin.block.thumbnail'),
      cell: ({ row }) => {
        const image = captured[row.original.id] ?? (row.original.image || null);
        return image ? (
          <img src={image} alt={row.original.name} data-testid="block-thumbnail" />
        ) : (
          <span className="muted small">—</span>
        );
      },
      meta: { className: 'block-admin-thumb' },
    },
    {
      id: 'name',
      header: () => t('blockAdmin.block.name'),
      cell: ({ row }) => (
        <>
          <strong>{row.original.name}</strong>
          {row.original.keywords && <div className="muted small">{row.original.keywords}</div>}
        </>
      ),
    },
    {
      id: 'category',
      header: () => t('blockAdmin.block.category'),
      cell: ({ row }) => <CategoryCell block={row.original} categories={categories} />,
    },
    {
      id: 'order',
      header: () => t('blockAdmin.order'),
      cell: ({ row }) => <OrderCell block={row.original} />,
    },
    {
      id: 'actions',
      header: () => t('common.actions'),
      cell: ({ row }) => (
        <ActionsCell
          block={row.original}
          screenshot={screenshot}
          onEdit={onEdit}
          onExport={onExport}
          onThumbnail={(url) => keep(row.original.id, url)}
        />
      ),
      meta: { className: 'actions-cell' },
    },
  ];

  return (
    <DataTable
      data={blocks}
      columns={columns}
      getRowId={(block) => String(block.id)}
      framed={false}
      testId="blocks-table"
      rowTestId={(block) => `block-row-${block.id}`}
      label={label}
    />
  );
}
