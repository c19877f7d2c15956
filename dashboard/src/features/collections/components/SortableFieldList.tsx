import { arrayMove } from '@dnd-kit/sortable';
import { useTranslation } from 'react-i18next';
import type { Field } from '@/features/collections/types';
import { ActionButton } from '@/components/ActionButton';
import { DeleteButton } from '@/components/ItemButtons';
import { DragHandle, SortableList, useSortableItem } from '@/components/Sortable';

interface RowProps {
  field: Field;
  onEdit: (field: Field) => void;
  onDelete: (field: Field) => void;
}

function SortableRow({ field, onEdit, onDelete }: RowProps) {
  const { t } = useTranslation();
  const { ref, style, isDragging, handle } = useSortableItem(field.id);
  return (
    <li
      ref={ref}
      style={style}
      className={`field-row${isDragging ? ' is-dragging' : ''}`}
      data-testid="field-row"
      data-field-id={field.id}
      data-field-type={field.type}
    >
      <DragHandle {...handle} label={t('collections.fields.drag')} testId="field-drag" />
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
        <DeleteButton onDelete={() => onDelete(field)} testId="field-delete" />
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
  const onDrop = (fromId: number, toId: number) => {
    const from = fields.findIndex((field) => field.id === fromId);
    const to = fields.findIndex((field) => field.id === toId);
    if (from < 0 || to < 0) return;
    onMove(arrayMove(fields, from, to));
  };

  return (
    <SortableList ids={fields.map((field) => field.id)} onMove={onDrop}>
      <ul className="field-list card" data-testid="field-list">
        {fields.map((field) => (
          <SortableRow key={field.id} field={field} onEdit={onEdit} onDelete={onDelete} />
        ))}
      </ul>
    </SortableList>
  );
}
