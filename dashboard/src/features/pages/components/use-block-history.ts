import { useEffect, useState } from 'react';
import { useLatest } from '@/lib/use-latest';
import {
  canRedo,
  canUndo,
  current,
  record,
  redo,
  startHistory,
  undo,
  type History,
} from '@/features/pages/lib/history';
import { historyKey } from '@/features/pages/lib/shortcuts';
import type { PageBlock } from '@/features/pages/types';

type Step = (history: History<PageBlock[]>) => History<PageBlock[]>;

/**
 * The page's blocks with their undo history: `commit(change)` records an edit, `undo` and `redo`
 * travel, and so do Ctrl/⌘+Z and Shift+Z / Y outside fields (the canvas iframe keeps its own key
 * presses). `onChange` runs after every change that moved the blocks (the autosave's version).
 */
export function useBlockHistory(initial: () => PageBlock[], onChange: () => void) {
  const [history, setHistory] = useState<History<PageBlock[]>>(() => startHistory(initial()));

  // Edits are functions of the latest blocks (kept in a ref), so one finishing late (an upload)
  // applies to the page as it is then, not as it was when it started.
  const historyRef = useLatest(history);
  const apply = (step: Step) => {
    const before = historyRef.current;
    const next = step(before);
    if (next === before) return;
    historyRef.current = next;
    setHistory(next);
    onChange();
  };
  const commit = (change: (blocks: PageBlock[]) => PageBlock[]) =>
    apply((before) => record(before, change(current(before))));

  const applyRef = useLatest(apply);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const action = historyKey(event);
      if (!action) return;
      event.preventDefault();
      applyRef.current(action === 'undo' ? undo : redo);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [applyRef]);

  return {
    blocks: current(history),
    commit,
    canUndo: canUndo(history),
    canRedo: canRedo(history),
    undo: () => apply(undo),
    redo: () => apply(redo),
  };
}
