/**
 * What the preview needs from the render API, and what it must tell the canvas. Rendered html
 * is cached by the block's content (template, code, vars, effect), so undo, redo and moves
 * re-use earlier answers; after a field edit only the edited block is missing, and the canvas
 * gets one `replace-block` instead of a full `render`.
 */
import type { PageBlock, RenderedBlock } from '@/features/pages/types';

/** Keys by block object: edits replace the edited block and keep the others' identity. */
const keys = new WeakMap<PageBlock, string>();

/** The parts of a block that decide its html (computed once per block object). */
export function contentKey(block: PageBlock): string {
  let key = keys.get(block);
  if (key === undefined) {
    key = JSON.stringify([block.template, block.css, block.js, block.vars, block.effect ?? '']);
    keys.set(block, key);
  }
  return key;
}

const LIMIT = 2000;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Html shown in place of a block the server could not render. */
export function errorHtml(message: string): string {
  return `<div class="vt-render-error" style="padding:12px;border:2px dashed #dc2626;color:#991b1b;font:14px sans-serif">${escapeHtml(message)}</div>`;
}

interface Entry {
  /** What the canvas shows: the html, or an error box. */
  shown: string;
  /** What the page's output gets: the html, or nothing for a block that failed. */
  output: string;
}

export class RenderCache {
  private readonly html = new Map<string, Entry>();

  get(block: PageBlock): string | undefined {
    return this.html.get(contentKey(block))?.shown;
  }

  has(block: PageBlock): boolean {
    return this.html.has(contentKey(block));
  }

  /** Stores an answer for `block` (the block the request was made with). */
  put(block: PageBlock, rendered: RenderedBlock): void {
    if (this.html.size >= LIMIT) {
      const oldest = this.html.keys().next().value;
      if (oldest !== undefined) this.html.delete(oldest);
    }
    this.html.set(
      contentKey(block),
      'html' in rendered
        ? { shown: rendered.html, output: rendered.html }
        : { shown: errorHtml(rendered.error), output: '' },
    );
  }

  missing(blocks: PageBlock[]): PageBlock[] {
    return blocks.filter((block) => !this.has(block));
  }

  /**
   * The page's output: every block's html, joined (undefined while one is missing). A block
   * the server could not render adds nothing: its error box is for the editor only.
   */
  output(blocks: PageBlock[]): string | undefined {
    const parts = blocks.map((block) => this.html.get(contentKey(block))?.output);
    if (!parts.every((part): part is string => part !== undefined)) return undefined;
    return parts.filter((part) => part !== '').join('\n');
  }

  clear(): void {
    this.html.clear();
  }
}

/** What the canvas shows: each block's uid and content key, in order. */
export type CanvasState = { uid: string; key: string }[];

export function canvasState(blocks: PageBlock[]): CanvasState {
  return blocks.map((block) => ({ uid: block.uid, key: contentKey(block) }));
}

export type CanvasUpdate = { kind: 'none' } | { kind: 'replace'; uids: string[] } | { kind: 'render' };

/**
 * From what the canvas shows to what it should show: nothing, a few blocks replaced in place
 * (same blocks in the same order), or everything re-rendered.
 */
export function planCanvasUpdate(
  shown: CanvasState | null,
  wanted: CanvasState,
  maxReplace = 3,
): CanvasUpdate {
  if (!shown || shown.length !== wanted.length || shown.some((entry, i) => entry.uid !== wanted[i]?.uid))
    return { kind: 'render' };
  const changed = wanted.filter((entry, i) => entry.key !== shown[i]?.key).map((entry) => entry.uid);
  if (changed.length === 0) return { kind: 'none' };
  return changed.length <= maxReplace ? { kind: 'replace', uids: changed } : { kind: 'render' };
}
