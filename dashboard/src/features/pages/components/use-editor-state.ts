import { useEffect, useReducer } from 'react';
import {
  canRedoEdit,
  canUndoEdit,
  editorDoc,
  editorReducer,
  startEditor,
  type EditorDoc,
} from '@/features/pages/lib/editor-commands';
import { historyKey } from '@/features/pages/lib/shortcuts';

/**
 * The editor's state (`lib/editor-commands.ts`): the document, its undo history, the selection.
 * Commands are dispatched; each applies to the state as it is when it lands, so an edit that
 * finishes late (an upload) changes the page as it is then. Ctrl/⌘+Z and Shift+Z / Y outside
 * fields undo and redo (the canvas iframe keeps its own key presses).
 */
export function useEditorState(initial: () => EditorDoc) {
  const [state, dispatch] = useReducer(editorReducer, undefined, () => startEditor(initial()));

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const action = historyKey(event);
      if (!action) return;
      event.preventDefault();
      dispatch({ type: action });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return {
    state,
    doc: editorDoc(state),
    dispatch,
    canUndo: canUndoEdit(state),
    canRedo: canRedoEdit(state),
  };
}
