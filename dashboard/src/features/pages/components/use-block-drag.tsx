import {
  DragOverlay,
  PointerSensor,
  pointerWithin,
  useSensor,
  useSensors,
  type DndContextProps,
  type DragEndEvent,
  type DragMoveEvent,
  type DragStartEvent,
} from '@dnd-kit/core';
import { useRef, useState } from 'react';
import { CANVAS_DROP_ID, type CanvasHandle, type DragData } from './CanvasFrame';

function pointerY(event: DragMoveEvent | DragEndEvent): number | null {
  const start = event.activatorEvent;
  if (start instanceof MouseEvent) return start.clientY + event.delta.y;
  if (typeof TouchEvent !== 'undefined' && start instanceof TouchEvent) {
    const touch = start.touches[0] ?? start.changedTouches[0];
    return touch ? touch.clientY + event.delta.y : null;
  }
  return null;
}

interface BlockDragOptions {
  /** How many blocks the canvas shows: a drop with no pointer position goes after the last. */
  blockCount: number;
  /** The name the floating preview shows for what is dragged. */
  labelOf: (data: DragData) => string;
  /** A drop on the canvas, before the canvas block at `index` (the canvas's own order). */
  onDrop: (data: DragData, index: number) => void;
}

/**
 * The editor's drag and drop: library blocks dragged onto the canvas and page blocks moved on it.
 * @dnd-kit, the dashboard's drag-and-drop library (maintained; pointer and touch sensors; a
 * DragOverlay that floats above the panels), rather than native HTML5 drag and drop, which
 * has no touch support and whose events stop at the iframe just the same. The iframe is
 * covered by CanvasFrame's drop overlay while a drag is on; blocks are placed from the boxes
 * the canvas reports. A drop is on the canvas when the pointer is (`pointerWithin`), the point
 * the index comes from: a block's label starts above the frame, so the dragged box's overlap
 * with the canvas is no measure of where the pointer is.
 *
 * Returns the `DndContext`'s props, what `CanvasFrame` shows of the drag (`dragging`, `dropAt`,
 * `handle`) and `preview`, the floating label to render inside the context.
 */
export function useBlockDrag({ blockCount, labelOf, onDrop }: BlockDragOptions) {
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }));
  const handle = useRef<CanvasHandle>(null);
  const [dragData, setDragData] = useState<DragData | null>(null);
  const [dropAt, setDropAt] = useState<number | null>(null);

  const dropIndexOf = (event: DragMoveEvent | DragEndEvent): number | null => {
    if (event.over?.id !== CANVAS_DROP_ID) return null;
    const y = pointerY(event);
    return y === null || !handle.current ? blockCount : handle.current.indexAt(y);
  };
  const stop = () => {
    setDragData(null);
    setDropAt(null);
  };
  const contextProps: DndContextProps = {
    sensors,
    collisionDetection: pointerWithin,
    onDragStart: (event: DragStartEvent) =>
      setDragData((event.active.data.current as DragData | undefined) ?? null),
    onDragMove: (event: DragMoveEvent) => setDropAt(dropIndexOf(event)),
    onDragEnd: (event: DragEndEvent) => {
      const index = dropIndexOf(event);
      const data = event.active.data.current as DragData | undefined;
      stop();
      if (index !== null && data) onDrop(data, index);
    },
    onDragCancel: stop,
  };
  const label = dragData ? labelOf(dragData) : null;
  const preview = (
    <DragOverlay dropAnimation={null}>
      {label !== null ? <div className="drag-preview">{label}</div> : null}
    </DragOverlay>
  );
  return { contextProps, dragging: dragData !== null, dropAt, handle, preview };
}
