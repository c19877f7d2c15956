/**
 * Vitest setup for every test file: jsdom has no layout, and its Range lacks the measuring
 * methods that ProseMirror (tiptap) and CodeMirror call, sometimes from an animation frame after
 * a test has finished, which vitest then reports as an unhandled error failing the run. Empty
 * measurements are what a layout-less DOM would give. Node-environment tests have no Range.
 */
if (typeof Range !== 'undefined') {
  if (!Range.prototype.getClientRects) {
    Range.prototype.getClientRects = function getClientRects() {
      return [] as unknown as DOMRectList;
    };
  }
  if (!Range.prototype.getBoundingClientRect) {
    Range.prototype.getBoundingClientRect = function getBoundingClientRect() {
      return new DOMRect(0, 0, 0, 0);
    };
  }
}

/**
 * jsdom has no `CSS.escape`, which React Aria calls (to read a CSP nonce) when an overlay opens.
 * Escaping every character but letters, digits, '_' and '-' is enough for the names it passes.
 */
if (typeof window !== 'undefined') {
  const css: typeof CSS = globalThis.CSS ?? ({} as typeof CSS);
  if (!css.escape) {
    css.escape = (value: string) => String(value).replace(/[^\w-]/g, (char) => `\\${char}`);
    globalThis.CSS = css;
  }
}
