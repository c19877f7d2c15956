/**
 * Undo/redo over page states (spec §4): a list of snapshots and a cursor. A snapshot is
 * appended only when it differs from the current one; appending after an undo drops the
 * states ahead of the cursor. Pure, so the editor keeps it in a reducer.
 */
export interface History<T> {
  entries: T[];
  cursor: number;
}

export function startHistory<T>(initial: T): History<T> {
  return { entries: [initial], cursor: 0 };
}

export function current<T>(history: History<T>): T {
  return history.entries[history.cursor] as T;
}

function same<T>(a: T, b: T): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

export function record<T>(history: History<T>, next: T): History<T> {
  if (same(current(history), next)) return history;
  const entries = [...history.entries.slice(0, history.cursor + 1), next];
  return { entries, cursor: entries.length - 1 };
}

export function canUndo<T>(history: History<T>): boolean {
  return history.cursor > 0;
}

export function canRedo<T>(history: History<T>): boolean {
  return history.cursor < history.entries.length - 1;
}

export function undo<T>(history: History<T>): History<T> {
  return canUndo(history) ? { ...history, cursor: history.cursor - 1 } : history;
}

export function redo<T>(history: History<T>): History<T> {
  return canRedo(history) ? { ...history, cursor: history.cursor + 1 } : history;
}
