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
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { CSSProperties, ReactNode } from 'react';

interface SortableListProps {
  /** The items' ids, in their order; the ids their `useSortableItem` gives. */
  ids: number[];
  /** An item was dropped on another: `fromId` goes to `toId`'s place. */
  onMove: (fromId: number, toId: number) => void;
  /** The list, whose items call `useSortableItem`. */
  children: ReactNode;
}

/**
 * A vertical list reordered by dragging an item's `DragHandle`, with the mouse, by touch or with the
 * keyboard (Space, the arrows, Space): the collection's fields and the administrator's templates.
 * The pointer drags only after 4 px, so a click on the handle's row stays a click.
 */
export function SortableList({ ids, onMove, children }: SortableListProps) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) onMove(Number(active.id), Number(over.id));
  };
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        {children}
      </SortableContext>
    </DndContext>
  );
}

type Sortable = ReturnType<typeof useSortable>;

/** What an item's `DragHandle` takes. */
export interface DragHandleBinding {
  setActivator: Sortable['setActivatorNodeRef'];
  attributes: Sortable['attributes'];
  listeners: Sortable['listeners'];
}

/**
 * One item of a `SortableList`: the `ref` and `style` of its element (which moves while it is
 * dragged), whether it is the one dragged, and the binding of its `DragHandle`. `disabled` holds it
 * in place (while a move is being stored).
 */
export function useSortableItem(id: number, disabled = false) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({ id, disabled });
  // Translate, not Transform: a vertical list never scales its items, and a table row must not.
  const style: CSSProperties = { transform: CSS.Translate.toString(transform), transition };
  const handle: DragHandleBinding = { setActivator: setActivatorNodeRef, attributes, listeners };
  return { ref: setNodeRef, style, isDragging, handle };
}

interface DragHandleProps extends DragHandleBinding {
  /** What it moves ("Drag the field"). */
  label: string;
  testId: string;
}

/** The ⠿ an item is dragged by: `<DragHandle {...handle} …>` with its item's `handle`. */
export function DragHandle({ setActivator, attributes, listeners, label, testId }: DragHandleProps) {
  return (
    <button
      type="button"
      ref={setActivator}
      className="drag-handle"
      aria-label={label}
      data-testid={testId}
      {...attributes}
      {...listeners}
    >
      ⠿
    </button>
  );
}
