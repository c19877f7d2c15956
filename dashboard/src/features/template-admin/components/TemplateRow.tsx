import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '@/components/ConfirmDialog';
import { Link } from 'react-router';
import { paths } from '@/app/paths';
import { toastFailure, toastOk, toastOutcome } from '@/components/admin-toasts';
import { useDeleteTemplate } from '@/features/template-admin/api/delete-template';
import { useTemplateScreenshot } from '@/features/template-admin/api/template-screenshot';
import type { TemplateView } from '@/features/template-admin/types';

interface Props {
  template: TemplateView;
  isFirst: boolean;
  isLast: boolean;
  /** While a move is being stored, the order controls wait. */
  reordering: boolean;
  onEdit: (template: TemplateView) => void;
  onMove: (template: TemplateView, step: -1 | 1) => void;
}

/** One template: drag handle and up/down, thumbnail, category / name, published state, actions. */
export function TemplateRow({ template, isFirst, isLast, reordering, onEdit, onMove }: Props) {
  const { t } = useTranslation();
  const [confirmDialog, askConfirm] = useConfirm();
  const remove = useDeleteTemplate();
  const shot = useTemplateScreenshot();
  const [captured, setCaptured] = useState<string | null>(null);
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({
      id: template.id,
      disabled: reordering,
    });

  useEffect(
    () => () => {
      if (captured) URL.revokeObjectURL(captured);
    },
    [captured],
  );

  const generate = () =>
    shot.mutate(template.id, {
      onSuccess: (image) => {
        // The stored thumbnail may keep its URL: show the new capture right away.
        setCaptured(URL.createObjectURL(image));
        toastOk(t);
      },
      onError: (failure) => toastFailure(t, failure),
    });

  const thumbnail = captured ?? template.thumbnail;
  const published = template.is_published === '1';
  return (
    <tr
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={isDragging ? 'is-dragging' : undefined}
      data-testid={`template-row-${template.id}`}
    >
      <td className="template-admin-order">
        <div className="button-row">
          <button
            type="button"
            ref={setActivatorNodeRef}
            className="drag-handle"
            aria-label={t('templateAdmin.drag')}
            data-testid="template-drag"
            {...attributes}
            {...listeners}
          >
            ⠿
          </button>
          <button
            type="button"
            className="button button-small"
            aria-label={t('templateAdmin.moveUp')}
            title={t('templateAdmin.moveUp')}
            disabled={isFirst || reordering}
            onClick={() => onMove(template, -1)}
            data-testid="template-move-up"
          >
            ↑
          </button>
          <button
            type="button"
            className="button button-small"
            aria-label={t('templateAdmin.moveDown')}
            title={t('templateAdmin.moveDown')}
            disabled={isLast || reordering}
            onClick={() => onMove(template, 1)}
            data-testid="template-move-down"
          >
            ↓
          </button>
        </div>
      </td>
      <td className="template-admin-thumb" aria-busy={shot.isPending}>
        {thumbnail ? (
          <img src={thumbnail} alt={template.name} data-testid="template-thumbnail" />
        ) : (
          <span className="template-admin-thumb-empty muted small" data-testid="template-thumbnail-empty">
            {t('templateAdmin.noThumbnail')}
          </span>
        )}
      </td>
      <td>
        <span className="muted" data-testid="template-category-label">
          {template.category}
        </span>
        {' / '}
        <strong data-testid="template-name-label">{template.name}</strong>
        {template.description && <div className="muted small">{template.description}</div>}
      </td>
      <td>
        <span
          className={`badge ${published ? 'badge-success' : 'badge-muted'}`}
          data-testid="template-published-state"
          data-published={template.is_published}
        >
          {published ? t('templateAdmin.published') : t('templateAdmin.unpublished')}
        </span>
      </td>
      <td className="actions-cell">
        <div className="button-row">
          <button
            type="button"
            className="button button-small"
            onClick={() => onEdit(template)}
            data-testid="template-edit"
          >
            {t('templateAdmin.edit')}
          </button>
          <Link
            to={paths.template.build({ templateId: template.id })}
            className="button button-small"
            data-testid="template-view"
          >
            {t('templateAdmin.view')}
          </Link>
          <button
            type="button"
            className="button button-small"
            disabled={shot.isPending}
            aria-busy={shot.isPending}
            onClick={generate}
            data-testid="template-screenshot"
          >
            {shot.isPending ? t('templateAdmin.generating') : t('templateAdmin.generateThumbnail')}
          </button>
          <button
            type="button"
            className="button button-small button-danger-ghost"
            disabled={remove.isPending}
            data-testid="template-delete"
            onClick={() => {
              void askConfirm({
                title: t('kit.confirm.deleteTemplate', { name: template.name }),
                message: t('kit.confirm.irreversible'),
                confirmLabel: t('common.delete'),
                destructive: true,
              }).then((confirmed) => {
                if (confirmed) remove.mutate(template.id, toastOutcome(t));
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
