/**
 * Undo/redo from the keyboard (Ctrl or ⌘ + Z, + Shift + Z or + Y), except while typing in a
 * field: there the input's own undo applies.
 */
export type HistoryKey = 'undo' | 'redo' | null;

interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  target: EventTarget | null;
}

function isEditable(target: EventTarget | null): boolean {
  if (typeof Element === 'undefined' || !(target instanceof Element)) return false;
  return Boolean(
    target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"], .cm-editor'),
  );
}

export function historyKey(event: KeyLike): HistoryKey {
  if (!(event.ctrlKey || event.metaKey) || event.altKey || isEditable(event.target)) return null;
  const key = event.key.toLowerCase();
  if (key === 'z') return event.shiftKey ? 'redo' : 'undo';
  if (key === 'y' && !event.shiftKey) return 'redo';
  return null;
}
