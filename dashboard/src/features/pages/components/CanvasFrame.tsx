import { useDraggable, useDroppable } from '@dnd-kit/core';
import {
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
  type Ref,
  type RefObject,
} from 'react';
import { useTranslation } from 'react-i18next';
import { dropIndex } from '@/features/pages/lib/canvas-protocol';
import { DESKTOP_WIDTH } from '@/features/pages/lib/preview-size';
import type { LibraryBlock } from '@/lib/types';
import type { BlockSource } from '@/features/pages/types';
import type { CanvasView } from './use-canvas';
import type { PreviewSizeControl } from './use-preview-size';
import { ActionButton } from '@/components/ActionButton';

/** Id of the drop target laid over the iframe while something is dragged. */
export const CANVAS_DROP_ID = 'canvas';

/** Drag data: a block from the library panel, or a page block being moved. */
export type DragData = { kind: 'insert'; source: BlockSource; id: number } | { kind: 'move'; uid: string };

export interface CanvasHandle {
  /** The insertion index for a pointer at clientY (the parent's coordinates). */
  indexAt: (clientY: number) => number;
}

interface Props {
  /** What `useCanvas` keeps of the preview: the iframe, its document, its blocks, their boxes, hover and selection. */
  canvas: CanvasView;
  /** The preview's size; the canvas reports the stage's width to it, for the fit-to-width zoom. */
  size: PreviewSizeControl;
  /** The drag under way (`useBlockDrag`): whether one is, where a drop would insert, and the handle it asks. */
  drag: { dragging: boolean; dropAt: number | null; handle: Ref<CanvasHandle> };
  /** Library blocks a blank page suggests, each added with one click (`lib/starter-blocks.ts`). */
  starters: LibraryBlock[];
  onAddStarter: (id: number) => void;
}

/**
 * A page with no blocks: says so, takes a drop from the library (the drop overlay covers it
 * while a drag is on) and offers a few starting blocks.
 */
function EmptyCanvas({ starters, onAdd }: { starters: LibraryBlock[]; onAdd: (id: number) => void }) {
  const { t } = useTranslation();
  return (
    <div className="canvas-empty" data-testid="canvas-empty">
      <p className="canvas-empty-title">{t('editor.canvas.empty.title')}</p>
      <p className="muted">{t('editor.canvas.empty.hint')}</p>
      {starters.length > 0 && (
        <ul className="canvas-starters" aria-label={t('editor.canvas.empty.starters')}>
          {starters.map((block) => (
            <li
              key={block.id}
              className="canvas-starter"
              data-testid="starter-block"
              data-block-id={block.id}
            >
              {block.image ? (
                <img src={block.image} alt="" loading="lazy" />
              ) : (
                <span className="library-block-placeholder" aria-hidden="true" />
              )}
              <ActionButton size="small" onClick={() => onAdd(block.id)} testId="starter-add">
                {t('editor.canvas.empty.add', { name: block.name })}
              </ActionButton>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * A block's label: its name, a move handle (drag) and a select button (click). It sits above the
 * block's top edge (or above the frame while that edge is scrolled away), so it never covers the
 * block's own content, and shows only while the block is hovered, selected or the label focused:
 * hidden labels take no pointer events, so they never keep a click from the site's controls.
 */
function MoveHandle({
  uid,
  name,
  top,
  selected,
  shown,
  onSelect,
  onHover,
}: {
  uid: string;
  name: string;
  top: number;
  selected: boolean;
  shown: boolean;
  onSelect: () => void;
  onHover: (over: boolean) => void;
}) {
  const { t } = useTranslation();
  const data: DragData = { kind: 'move', uid };
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({ id: `block:${uid}`, data });
  return (
    <button
      type="button"
      ref={setNodeRef}
      className={`canvas-handle${selected ? ' is-selected' : ''}${shown || isDragging ? ' is-shown' : ''}`}
      style={{ top }}
      onPointerEnter={() => onHover(true)}
      onPointerLeave={() => onHover(false)}
      title={t('editor.canvas.move', { name })}
      aria-label={t('editor.canvas.move', { name })}
      data-testid="block-handle"
      data-uid={uid}
      onClick={onSelect}
      {...attributes}
      {...listeners}
    >
      ⠿ {name}
    </button>
  );
}

/**
 * The element's height, kept up to date by a ResizeObserver (its first report comes right after
 * observe()); 0 where there is none (jsdom), as clientHeight is there.
 */
function useElementHeight(ref: RefObject<HTMLElement | null>): number {
  const [height, setHeight] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(() => setHeight(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return height;
}

/** The width of the element's content box (padding and scroll bar left out). */
function contentWidth(element: HTMLElement): number {
  const style = getComputedStyle(element);
  return element.clientWidth - (parseFloat(style.paddingLeft) || 0) - (parseFloat(style.paddingRight) || 0);
}

/**
 * Reports the element's content width to `report` before the first paint (so a fitted frame
 * never shows at another size first) and on every resize of the window or the panels.
 */
function useContentWidth(ref: RefObject<HTMLElement | null>, report: (width: number) => void): void {
  const reportRef = useRef(report);
  useLayoutEffect(() => {
    reportRef.current = report;
  });
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    reportRef.current(contentWidth(element));
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(() => reportRef.current(contentWidth(element)));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
}

/**
 * The centre: the sandboxed preview iframe (allow-scripts, never allow-same-origin), scaled on
 * the 1280 px desktop reference (fitted to the stage's width by default) or at a device's size. The iframe's document takes no part in
 * the parent's pointer events, so dragging uses a transparent drop overlay laid over it while a
 * drag is on, and move handles in a layer above it, placed from the canvas's `layout` reports.
 */
export function CanvasFrame(props: Props) {
  const { t } = useTranslation();
  const {
    canvas: { iframeRef, srcdoc, layout, hovered, blocks, selected, onSelect },
    size: { mode, scale, device, setAvailableWidth },
    drag: { dragging, dropAt, handle },
    starters,
    onAddStarter,
  } = props;
  const frameRef = useRef<HTMLDivElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  useContentWidth(stageRef, setAvailableWidth);
  const frameHeight = useElementHeight(frameRef);
  const effectiveScale = mode === 'desktop' ? scale : 1;
  const { setNodeRef } = useDroppable({ id: CANVAS_DROP_ID });
  // The label under the pointer: the canvas reports the pointer gone once it is over a label.
  const [overLabel, setOverLabel] = useState<string | null>(null);

  useImperativeHandle(handle, () => ({
    indexAt: (clientY: number) => {
      const rect = frameRef.current?.getBoundingClientRect();
      const y = rect ? (clientY - rect.top) / effectiveScale + layout.scrollY : 0;
      return dropIndex(layout.boxes, y);
    },
  }));

  const width = mode === 'desktop' ? DESKTOP_WIDTH : device.width;
  const frameStyle =
    mode === 'desktop'
      ? { width: DESKTOP_WIDTH * scale, height: '100%' }
      : { width: device.width, height: device.height };
  const iframeStyle =
    mode === 'desktop'
      ? { width, height: `${100 / scale}%`, transform: `scale(${scale})`, transformOrigin: 'top left' }
      : { width: device.width, height: device.height };

  const names = new Map(blocks.map((block) => [block.uid, block.name]));
  const lineTop = (() => {
    if (dropAt === null) return null;
    const box = layout.boxes[dropAt];
    const last = layout.boxes[layout.boxes.length - 1];
    const y = box ? box.top : last ? last.top + last.height : 0;
    return (y - layout.scrollY) * effectiveScale;
  })();

  return (
    <div className={`canvas-stage canvas-${mode}`} ref={stageRef} data-testid="canvas-stage">
      <div className="canvas-frame" ref={frameRef} style={frameStyle}>
        {srcdoc === null ? (
          <p className="canvas-loading">{t('common.loading')}</p>
        ) : (
          <iframe
            ref={iframeRef}
            title={t('editor.canvas.title')}
            sandbox="allow-scripts"
            srcDoc={srcdoc}
            style={iframeStyle}
            data-testid="canvas-iframe"
          />
        )}
        <div className="canvas-handles" aria-label={t('editor.canvas.blocks')}>
          {layout.boxes.map((box) => {
            const top = (box.top - layout.scrollY) * effectiveScale;
            const bottom = top + box.height * effectiveScale;
            if (bottom <= 0 || top > frameHeight) return null;
            return (
              <MoveHandle
                key={box.uid}
                uid={box.uid}
                name={names.get(box.uid) ?? box.uid}
                top={Math.max(0, top)}
                selected={box.uid === selected}
                shown={box.uid === selected || box.uid === hovered || box.uid === overLabel}
                onSelect={() => onSelect(box.uid)}
                onHover={(over) =>
                  setOverLabel((current) => (over ? box.uid : current === box.uid ? null : current))
                }
              />
            );
          })}
        </div>
        {srcdoc !== null && blocks.length === 0 && !dragging && (
          <EmptyCanvas starters={starters} onAdd={onAddStarter} />
        )}
        {dragging && (
          <div ref={setNodeRef} className="canvas-drop-overlay" data-testid="canvas-drop-overlay">
            {lineTop !== null && (
              <div
                className="canvas-drop-line"
                style={{ top: Math.max(0, lineTop) }}
                data-testid="drop-line"
              />
            )}
          </div>
        )}
      </div>
    </div>
  );
}
