/**
 * Inline editing on the canvas, the parent's side: which field of a block a double-clicked text
 * is (the canvas only reports texts, never a field), and what a committed edit stores. The
 * canvas runtime's side is in canvas-document.ts, the messages in canvas-protocol.ts.
 */
import type { BlockVar, PageBlock } from '@/features/pages/types';

/** Variable types edited in place: plain text, and rich text (markup). */
export type InlineKind = 'text' | 'textarea' | 'richtext';

/** The field a double-click edits: its name, how far above the clicked element it is shown. */
export interface InlineTarget {
  name: string;
  kind: InlineKind;
  /** 0 for the clicked element, 1 for its parent, and so on. */
  depth: number;
}

/** Text as compared: runs of white space as one space, none at the ends. */
export function normalText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Markup parsed inertly (DOMParser runs no script and loads nothing). */
function parse(html: string): HTMLElement {
  return new DOMParser().parseFromString(html, 'text/html').body;
}

/** The text a rich-text value shows. */
export function richTextContent(html: string): string {
  return parse(html).textContent ?? '';
}

/**
 * The top-level structure of markup: its child nodes' names, white space and comments left out.
 * An element whose content has the rich-text value's shape holds that value and nothing around it.
 */
export function markupShape(html: string): string {
  return Array.from(parse(html).childNodes)
    .filter((node) => node.nodeType === 1 || (node.nodeType === 3 && normalText(node.textContent ?? '')))
    .map((node) => node.nodeName)
    .join(' ');
}

function inlineKind(v: BlockVar): InlineKind | null {
  // A field bound to the post shows the post's value, not one the block holds.
  if (v.postfield) return null;
  return v.type === 'text' || v.type === 'textarea' || v.type === 'richtext' ? v.type : null;
}

function shownText(v: BlockVar, kind: InlineKind): string {
  const value = typeof v.value === 'string' ? v.value : '';
  return normalText(kind === 'richtext' ? richTextContent(value) : value);
}

/**
 * The field whose value an element shows: the innermost of `texts` (the clicked element's text,
 * then its ancestors') equal to a text field's value; for a rich-text field, the element whose
 * text is the value's and whose markup (`htmls`) has the value's top-level shape, so that its
 * content is the whole value (`<div><p>a</p></div>` holds `<p>a</p>`, the `p` only `a`). Empty
 * fields and texts match nothing; the first field wins when two show the same text.
 */
export function inlineTarget(block: PageBlock, texts: string[], htmls: string[]): InlineTarget | null {
  const fields = block.vars.flatMap((v) => {
    const kind = inlineKind(v);
    const text = kind ? shownText(v, kind) : '';
    const shape = kind === 'richtext' && typeof v.value === 'string' ? markupShape(v.value) : '';
    return kind && text ? [{ name: v.name, kind, text, shape }] : [];
  });
  for (const [depth, raw] of texts.entries()) {
    const text = normalText(raw);
    const field = text
      ? fields.find(
          (f) => f.text === text && (f.kind !== 'richtext' || markupShape(htmls[depth] ?? '') === f.shape),
        )
      : undefined;
    if (field) return { name: field.name, kind: field.kind, depth };
  }
  return null;
}

/**
 * What an edit of `kind` stores: rich text as the markup edited (sanitised by the server when
 * the page is saved, and again when it is rendered), a one-line text field's value on one line.
 */
export function inlineValue(kind: InlineKind, value: string): string {
  return kind === 'text' ? value.replace(/[\r\n]+/g, ' ') : value;
}
