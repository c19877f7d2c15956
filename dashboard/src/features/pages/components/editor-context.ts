/** What the Block and Page tabs' inputs need from the editor: who uploads where, which collections exist. */
import { createContext, useContext } from 'react';
import type { PageSummary, TableSummary } from '@/lib/types';
import type { CollectionField } from '@/features/pages/api/get-collection-data';

export interface EditorContextValue {
  userId: number;
  projectId: number;
  /** The project's collections (list sources). */
  tables: TableSummary[];
  /** On a collection page: the collection's fields (post bindings); null elsewhere. */
  postFields: CollectionField[] | null;
  /** The project's pages and the one being edited (where a "see all" link can lead). */
  pages?: PageSummary[];
  pageId?: number;
}

export const EditorContext = createContext<EditorContextValue>({
  userId: 0,
  projectId: 0,
  tables: [],
  postFields: null,
});

export function useEditorContext(): EditorContextValue {
  return useContext(EditorContext);
}
