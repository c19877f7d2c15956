/**
 * The parent's half of the preview: renders blocks through the render API (only those whose
 * content changed), builds the srcdoc once, then keeps the canvas in step with `render`,
 * `replace-block` and `select` messages, and listens for `ready`, `select-block`, `hover-block`
 * and `layout`, and for inline edits (`edit-request` answered by `edit-start`, then
 * `edit-commit` or `edit-cancel`; see lib/inline-edit.ts).
 * No debounce on this path: a field edit costs one render call for one block and one message.
 */
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { errorMessage } from '@/lib/api-client';
import { renderBlocks } from '@/features/pages/api/render-blocks';
import { canvasDocument } from '@/features/pages/lib/canvas-document';
import {
  message,
  readCanvasMessage,
  type BlockBox,
  type CanvasBlock,
  type ParentMessage,
} from '@/features/pages/lib/canvas-protocol';
import {
  canvasState,
  contentKey,
  planCanvasUpdate,
  RenderCache,
  type CanvasState,
} from '@/features/pages/lib/render-cache';
import { inlineTarget, inlineValue, type InlineTarget } from '@/features/pages/lib/inline-edit';
import type { PageBlock } from '@/features/pages/types';

export interface CanvasLayout {
  boxes: BlockBox[];
  scrollY: number;
}

/** What the canvas frame shows of the preview (`useCanvas` gives it). */
export interface CanvasView {
  iframeRef: RefObject<HTMLIFrameElement | null>;
  srcdoc: string | null;
  layout: CanvasLayout;
  /** The block under the pointer in the canvas (its `hover-block` reports). */
  hovered: string | null;
  /** The blocks the canvas shows, the selected one and the selection's setter, as given. */
  blocks: PageBlock[];
  selected: string | null;
  onSelect: (uid: string) => void;
}

interface Options {
  projectId: number;
  pageId: number;
  /** The page's collection: binding another one changes every block's html, like another post. */
  tableId: number | null;
  post: string | undefined;
  blocks: PageBlock[];
  selected: string | null;
  onSelect: (uid: string) => void;
  /** An inline edit committed in the canvas: the value for field `name` of block `uid`. */
  onInlineEdit: (uid: string, name: string, value: string) => void;
}

/** The inline edit under way: the field the parent chose for it, named by `token`. */
interface PendingEdit extends InlineTarget {
  token: string;
  uid: string;
}

export function useCanvas({
  projectId,
  pageId,
  tableId,
  post,
  blocks,
  selected,
  onSelect,
  onInlineEdit,
}: Options) {
  const iframeRef = useRef<HTMLIFrameElement>(null);
  const [cache] = useState(() => new RenderCache());
  const [srcdoc, setSrcdoc] = useState<string | null>(null);
  const [layout, setLayout] = useState<CanvasLayout>({ boxes: [], scrollY: 0 });
  const [hovered, setHovered] = useState<string | null>(null);
  const head = useRef<string | null>(null);
  const headRequested = useRef(false);
  const ready = useRef(false);
  /** What the canvas shows, and what the srcdoc showed (after a reload the canvas is back there). */
  const shown = useRef<CanvasState | null>(null);
  const built = useRef<CanvasState | null>(null);
  const inflight = useRef(new Set<string>());
  const latest = useRef({ blocks, selected, post });
  latest.current = { blocks, selected, post };
  const onSelectRef = useRef(onSelect);
  onSelectRef.current = onSelect;
  const onInlineEditRef = useRef(onInlineEdit);
  onInlineEditRef.current = onInlineEdit;
  const editing = useRef<PendingEdit | null>(null);
  const editCount = useRef(0);
  const waiters = useRef<(() => void)[]>([]);

  const send = (body: ParentMessage) => {
    // The sandboxed canvas has an opaque origin, so '*' is the only target that reaches it; it
    // is our own iframe's window, and the canvas checks that messages come from its parent.
    iframeRef.current?.contentWindow?.postMessage(body, '*');
  };

  const sync = useCallback(() => {
    const canvasBlock = (block: PageBlock): CanvasBlock => ({
      uid: block.uid,
      html: cache.get(block) ?? '',
      css: block.css,
      js: block.js,
    });
    const { blocks: current, selected: selectedNow, post: postNow } = latest.current;
    const missing = cache.missing(current).filter((block) => !inflight.current.has(contentKey(block)));
    if (missing.length > 0 || !headRequested.current) {
      headRequested.current = true;
      missing.forEach((block) => inflight.current.add(contentKey(block)));
      renderBlocks({ projectId, pageId, post: postNow, blocks: missing })
        .then((result) => {
          head.current ??= result.head;
          // Rendered for a post that is no longer the one shown: the html is not the page's.
          if (latest.current.post !== postNow) return;
          const byUid = new Map(result.blocks.map((rendered) => [rendered.uid, rendered]));
          missing.forEach((block) =>
            cache.put(block, byUid.get(block.uid) ?? { uid: block.uid, error: 'not rendered' }),
          );
        })
        .catch((error: unknown) => {
          head.current ??= '';
          if (latest.current.post !== postNow) return;
          missing.forEach((block) => cache.put(block, { uid: block.uid, error: errorMessage(error) }));
        })
        .finally(() => {
          missing.forEach((block) => inflight.current.delete(contentKey(block)));
          waiters.current.splice(0).forEach((resolve) => resolve());
          sync();
        });
    }
    if (cache.missing(current).length > 0 || head.current === null) return;
    const wanted = canvasState(current);
    if (built.current === null) {
      built.current = wanted;
      shown.current = wanted;
      setSrcdoc(canvasDocument(head.current, current.map(canvasBlock), selectedNow));
      return;
    }
    if (!ready.current) return;
    const plan = planCanvasUpdate(shown.current, wanted);
    if (plan.kind === 'render') {
      send(message({ type: 'render', blocks: current.map(canvasBlock), selected: selectedNow }));
    } else if (plan.kind === 'replace') {
      current
        .filter((block) => plan.uids.includes(block.uid))
        .forEach((block) => send(message({ type: 'replace-block', block: canvasBlock(block) })));
    }
    shown.current = wanted;
  }, [cache, projectId, pageId]);

  useEffect(sync, [blocks, sync]);

  // Another post or collection changes every block's html: drop the cache, re-render everything.
  const firstPost = useRef(true);
  useEffect(() => {
    if (firstPost.current) {
      firstPost.current = false;
      return;
    }
    cache.clear();
    shown.current = null;
    sync();
  }, [post, tableId, cache, sync]);

  useEffect(() => {
    if (ready.current) send(message({ type: 'select', uid: selected }));
  }, [selected]);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const received = readCanvasMessage(event, iframeRef.current?.contentWindow);
      if (!received) return;
      if (received.type === 'ready') {
        ready.current = true;
        shown.current = built.current;
        sync();
      } else if (received.type === 'select-block') {
        onSelectRef.current(received.uid);
      } else if (received.type === 'hover-block') {
        setHovered(received.uid);
      } else if (received.type === 'layout') {
        setLayout({ boxes: received.boxes, scrollY: received.scrollY });
      } else if (received.type === 'edit-request') {
        const block = latest.current.blocks.find((b) => b.uid === received.uid);
        const target = block ? inlineTarget(block, received.texts, received.htmls) : null;
        if (!target) return;
        editCount.current += 1;
        const token = `edit-${editCount.current}`;
        editing.current = { ...target, token, uid: received.uid };
        send(
          message({
            type: 'edit-start',
            uid: received.uid,
            depth: target.depth,
            token,
            rich: target.kind === 'richtext',
          }),
        );
      } else if (received.type === 'edit-commit' || received.type === 'edit-cancel') {
        // Only the edit asked for, once: its field is the one chosen here, whatever the canvas says.
        const edit = editing.current;
        if (!edit || edit.token !== received.token) return;
        editing.current = null;
        if (received.type === 'edit-commit') {
          onInlineEditRef.current(edit.uid, edit.name, inlineValue(edit.kind, received.value));
        }
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [sync]);

  /** The page's output for a save: waits for pending renders of `blocksToSave`. */
  const output = useCallback(
    async (blocksToSave: PageBlock[]): Promise<string> => {
      for (;;) {
        const joined = cache.output(blocksToSave);
        if (joined !== undefined) return joined;
        const missing = cache.missing(blocksToSave);
        if (missing.every((block) => inflight.current.has(contentKey(block)))) {
          await new Promise<void>((resolve) => waiters.current.push(resolve));
        } else {
          const post = latest.current.post;
          const result = await renderBlocks({ projectId, pageId, post, blocks: missing });
          if (latest.current.post !== post) continue;
          const byUid = new Map(result.blocks.map((rendered) => [rendered.uid, rendered]));
          missing.forEach((block) =>
            cache.put(block, byUid.get(block.uid) ?? { uid: block.uid, error: 'not rendered' }),
          );
        }
      }
    },
    [cache, projectId, pageId],
  );

  return { iframeRef, srcdoc, layout, hovered, blocks, selected, onSelect, output };
}
