/**
 * The versioned postMessage protocol between the editor (parent) and the preview canvas (a
 * sandboxed srcdoc iframe without allow-same-origin, so its origin is "null" and only the
 * source window identifies it). Every message is `{vitrine: 1, type, ...}`. The parent accepts
 * a message only from the iframe's own window and with this version; the canvas runtime
 * (canvas-document.ts) only from its parent.
 */
export const PROTOCOL_VERSION = 1;

/** One block as the canvas shows it. */
export interface CanvasBlock {
  uid: string;
  html: string;
  css: string;
  js: string;
}

/** A block's box in the canvas document (CSS pixels, document coordinates). */
export interface BlockBox {
  uid: string;
  top: number;
  height: number;
}

export type ParentMessage =
  | { vitrine: 1; type: 'render'; blocks: CanvasBlock[]; selected: string | null }
  | { vitrine: 1; type: 'replace-block'; block: CanvasBlock }
  | { vitrine: 1; type: 'select'; uid: string | null }
  /**
   * Inline editing: the element `depth` levels above the one last double-clicked in block
   * `uid` becomes editable; `token` names this edit in the canvas's answer. `rich` edits its
   * markup, otherwise its plain text.
   */
  | { vitrine: 1; type: 'edit-start'; uid: string; depth: number; token: string; rich: boolean };

export type CanvasMessage =
  | { vitrine: 1; type: 'ready' }
  | { vitrine: 1; type: 'select-block'; uid: string }
  /** The block under the pointer, or null once the pointer leaves the blocks. */
  | { vitrine: 1; type: 'hover-block'; uid: string | null }
  /** Block boxes and the scroll offset, after every render and on scroll/resize. */
  | { vitrine: 1; type: 'layout'; boxes: BlockBox[]; scrollY: number }
  /**
   * A double-click on text in block `uid`: the text and the markup of the element clicked and of
   * each of its ancestors inside the block, innermost first (the parent looks for the field that
   * renders one of them).
   */
  | { vitrine: 1; type: 'edit-request'; uid: string; texts: string[]; htmls: string[] }
  /** The edited text (or markup) of the edit `token`, on blur or Enter. */
  | { vitrine: 1; type: 'edit-commit'; token: string; value: string }
  /** The edit `token` was abandoned (Escape): nothing changes. */
  | { vitrine: 1; type: 'edit-cancel'; token: string };

/** At most this many texts (the clicked element and its ancestors) in an `edit-request`. */
export const MAX_EDIT_DEPTH = 8;
/** The longest value an `edit-commit` may carry (characters); a longer one is ignored. */
export const MAX_EDIT_VALUE = 100_000;

type WithoutVersion<T> = T extends unknown ? Omit<T, 'vitrine'> : never;

export function message(body: WithoutVersion<ParentMessage>): ParentMessage {
  return { vitrine: PROTOCOL_VERSION, ...body };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isBox(value: unknown): value is BlockBox {
  return (
    isRecord(value) &&
    typeof value.uid === 'string' &&
    typeof value.top === 'number' &&
    typeof value.height === 'number'
  );
}

/** 1 to MAX_EDIT_DEPTH strings of at most MAX_EDIT_VALUE characters. */
function isTextList(value: unknown): value is string[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.length <= MAX_EDIT_DEPTH &&
    value.every((text) => typeof text === 'string' && text.length <= MAX_EDIT_VALUE)
  );
}

/**
 * The canvas message carried by `event`, or null when it comes from another window (another
 * frame, an extension, the page itself), has another version or an unknown shape.
 */
export function readCanvasMessage(
  event: Pick<MessageEvent, 'source' | 'data'>,
  canvasWindow: Window | null | undefined,
): CanvasMessage | null {
  if (!canvasWindow || event.source !== canvasWindow) return null;
  const data: unknown = event.data;
  if (!isRecord(data) || data.vitrine !== PROTOCOL_VERSION) return null;
  switch (data.type) {
    case 'ready':
      return { vitrine: 1, type: 'ready' };
    case 'select-block':
      return typeof data.uid === 'string' ? { vitrine: 1, type: 'select-block', uid: data.uid } : null;
    case 'hover-block':
      return typeof data.uid === 'string' || data.uid === null
        ? { vitrine: 1, type: 'hover-block', uid: data.uid }
        : null;
    case 'layout':
      return Array.isArray(data.boxes) && data.boxes.every(isBox) && typeof data.scrollY === 'number'
        ? { vitrine: 1, type: 'layout', boxes: data.boxes, scrollY: data.scrollY }
        : null;
    case 'edit-request':
      return typeof data.uid === 'string' &&
        isTextList(data.texts) &&
        isTextList(data.htmls) &&
        data.htmls.length === data.texts.length
        ? { vitrine: 1, type: 'edit-request', uid: data.uid, texts: data.texts, htmls: data.htmls }
        : null;
    case 'edit-commit':
      return typeof data.token === 'string' &&
        typeof data.value === 'string' &&
        data.value.length <= MAX_EDIT_VALUE
        ? { vitrine: 1, type: 'edit-commit', token: data.token, value: data.value }
        : null;
    case 'edit-cancel':
      return typeof data.token === 'string' ? { vitrine: 1, type: 'edit-cancel', token: data.token } : null;
    default:
      return null;
  }
}

/**
 * Where a drop at `y` (canvas document coordinates) inserts: before the first block whose
 * middle is below `y`, or at the end.
 */
export function dropIndex(boxes: BlockBox[], y: number): number {
  const index = boxes.findIndex((box) => y < box.top + box.height / 2);
  return index === -1 ? boxes.length : index;
}
