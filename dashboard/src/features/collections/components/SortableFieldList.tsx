import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
} from '@dnd-kit/core';
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useTranslation } from 'react-i18next';
import type { Field } from '@/features/collections/types';
import { ActionButton } from '@/components/ActionButton';

interface RowProps {
  field: Field;
  onEdit: (field: Field) => void;
  onDelete: (field: Field) => void;
}

function SortableRow({ field, onEdit, onDelete }: RowProps) {
  const { t } = useTranslation();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({ id: field.id });
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={`field-row${isDragging ? ' is-dragging' : ''}`}
      data-testid="field-row"
      data-field-id={field.id}
      data-field-type={field.type}
    >
      <button
        type="button"
        ref={setActivatorNodeRef}
        className="drag-handle"
        aria-label={t('collections.fields.drag')}
        data-testid="field-drag"
        {...attributes}
        {...listeners}
      >
        ⠿
      </button>
      <div className="field-row-main">
        <strong data-testid="field-row-name">{field.name}</strong>
        <code className="muted">{field.slug}</code>
      </div>
      <span className="badge badge-muted">{t(`collections.types.${field.type}`)}</span>
      {field.required === '1' && (
        <span className="badge badge-success">{t('collections.fields.required')}</span>
      )}
      {field.meta.hideAtListing && (
        <span className="badge badge-muted">{t('collections.fields.hidden')}</span>
      )}
      <div className="button-row">
        <ActionButton size="small" onClick={() => onEdit(field)} testId="field-edit">
          {t('collections.edit')}
        </ActionButton>
        <ActionButton
          size="small"
          variant="danger-ghost"
          onClick={() => onDelete(field)}
          testId="field-delete"
        >
          {t('common.delete')}
        </ActionButton>
      </div>
    </li>
  );
}

interface SortableFieldListProps extends Omit<RowProps, 'field'> {
  fields: Field[];
  /** Called with the whole list in its new order after a move. */
  onMove: (fields: Field[]) => void;
}

/** The field list, reordered by dragging a row's handle (mouse, touch or keyboard). */
export function SortableFieldList({ fields, onMove, onEdit, onDelete }: SortableFieldListProps) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = fields.findIndex((field) => field.id === active.id);
    const to = fields.findIndex((field) => field.id === over.id);
    if (from < 0 || to < 0) return;
    onMove(arrayMove(fields, from, to));
  };

  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      <SortableContext items={fields.map((field) => field.id)} strategy={verticalListSortingStrategy}>
        <ul className="field-list card" data-testid="field-list">
          {fields.map((field) => (
            <SortableRow key={field.id} field={field} onEdit={onEdit} onDelete={onDelete} />
          ))}
        </ul>
      </SortableContext>
    </DndContext>
  );
}
