import { createContext, use, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '@/components/ConfirmDialog';
import { paths } from '@/app/paths';
import type { DataRowProps } from '@/components/DataTable';
import { toastFailure, toastOk, toastOutcome } from '@/components/admin-toasts';
import { useDeleteTemplate } from '@/features/template-admin/api/delete-template';
import { useTemplateScreenshot } from '@/features/template-admin/api/template-screenshot';
import type { TemplateView } from '@/features/template-admin/types';
import { ButtonLink } from '@/components/ButtonLink';
import { ActionButton } from '@/components/ActionButton';
import { DeleteButton } from '@/components/ItemButtons';
import { DragHandle, useSortableItem, type DragHandleBinding } from '@/components/Sortable';

/** While a move is being stored, the order controls wait (set by the screen). */
export const ReorderingContext = createContext(false);

/** What one row holds (drag handle, thumbnail capture, delete) and hands to its cells. */
interface RowState {
  template: TemplateView;
  /** The drag handle's part of the sortable row. */
  dragHandle: DragHandleBinding;
  thumbnail: string | null;
  capturing: boolean;
  capture: () => void;
  deleting: boolean;
  askDelete: () => void;
  confirmDialog: ReactNode;
}

const RowContext = createContext<RowState | null>(null);

function useRow(): RowState {
  const row = use(RowContext);
  if (!row) throw new Error('A template cell is rendered outside its TemplateRow');
  return row;
}

/**
 * One template's `<tr>` (the DataTable's row component): a sortable row of the drag-and-drop
 * list, and the state its cells share (the captured thumbnail, the delete confirmation).
 */
export function TemplateRow({ row: template, rowAttributes, children }: DataRowProps<TemplateView>) {
  const { t } = useTranslation();
  const reordering = use(ReorderingContext);
  const [confirmDialog, askConfirm] = useConfirm();
  const remove = useDeleteTemplate();
  const shot = useTemplateScreenshot();
  const [captured, setCaptured] = useState<string | null>(null);
  const { ref, style, isDragging, handle } = useSortableItem(template.id, reordering);

  useEffect(
    () => () => {
      if (captured) URL.revokeObjectURL(captured);
    },
    [captured],
  );

  const capture = () =>
    shot.mutate(template.id, {
      onSuccess: (image) => {
        // The stored thumbnail may keep its URL: show the new capture right away.
        setCaptured(URL.createObjectURL(image));
        toastOk(t);
      },
      onError: (failure) => toastFailure(t, failure),
    });
  const askDelete = () => {
    void askConfirm({
      title: t('kit.confirm.deleteTemplate', { name: template.name }),
      message: t('kit.confirm.irreversible'),
      confirmLabel: t('common.delete'),
      destructive: true,
    }).then((confirmed) => {
      if (confirmed) remove.mutate(template.id, toastOutcome(t));
    });
  };

  const { className, ...trAttributes } = rowAttributes;
  return (
    <RowContext
      value={{
        template,
        dragHandle: handle,
        thumbnail: captured ?? template.thumbnail,
        capturing: shot.isPending,
        capture,
        deleting: remove.isPending,
        askDelete,
        confirmDialog,
      }}
    >
      <tr
        ref={ref}
        style={style}
        className={[className, isDragging ? 'is-dragging' : undefined].filter(Boolean).join(' ') || undefined}
        {...trAttributes}
      >
        {children}
      </tr>
    </RowContext>
  );
}

/** Drag handle and up/down buttons. */
export function TemplateOrderCell({
  isFirst,
  isLast,
  onMove,
}: {
  isFirst: boolean;
  isLast: boolean;
  onMove: (template: TemplateView, step: -1 | 1) => void;
}) {
  const { t } = useTranslation();
  const reordering = use(ReorderingContext);
  const { template, dragHandle } = useRow();
  const step = (by: -1 | 1, label: string, blocked: boolean, testId: string, arrow: string) => (
    <ActionButton
      size="small"
      aria-label={label}
      title={label}
      disabled={blocked || reordering}
      onClick={() => onMove(template, by)}
      testId={testId}
    >
      {arrow}
    </ActionButton>
  );
  return (
    <div className="button-row">
      <DragHandle {...dragHandle} label={t('templateAdmin.drag')} testId="template-drag" />
      {step(-1, t('templateAdmin.moveUp'), isFirst, 'template-move-up', '↑')}
      {step(1, t('templateAdmin.moveDown'), isLast, 'template-move-down', '↓')}
    </div>
  );
}

export function TemplateThumbnailCell() {
  const { t } = useTranslation();
  const { template, thumbnail, capturing } = useRow();
  return (
    <div aria-busy={capturing}>
      {thumbnail ? (
        <img src={thumbnail} alt={template.name} data-testid="template-thumbnail" />
      ) : (
        <span className="template-admin-thumb-empty muted small" data-testid="template-thumbnail-empty">
          {t('templateAdmin.noThumbnail')}
        </span>
      )}
    </div>
  );
}

/** Edit, view, a new thumbnail and delete (after confirmation). */
export function TemplateActionsCell({ onEdit }: { onEdit: (template: TemplateView) => void }) {
  const { t } = useTranslation();
  const { template, capturing, capture, deleting, askDelete, confirmDialog } = useRow();
  return (
    <>
      <div className="button-row">
        <ActionButton size="small" onClick={() => onEdit(template)} testId="template-edit">
          {t('templateAdmin.edit')}
        </ActionButton>
        <ButtonLink
          to={paths.template.build({ templateId: template.id })}
          size="small"
          testId="template-view"
        >
          {t('templateAdmin.view')}
        </ButtonLink>
        <ActionButton
          size="small"
          disabled={capturing}
          aria-busy={capturing}
          onClick={capture}
          testId="template-screenshot"
        >
          {capturing ? t('templateAdmin.generating') : t('templateAdmin.generateThumbnail')}
        </ActionButton>
        <DeleteButton disabled={deleting} testId="template-delete" onDelete={askDelete} />
      </div>
      {confirmDialog}
    </>
  );
}
