import type { Dispatch } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Page } from '@/lib/types';
import { normalizePageSlug } from '@/lib/validation';
import { saveSection } from '@/features/pages/api/sections';
import { useUpdatePage } from '@/features/pages/api/update-page';
import { useAutosave } from '@/features/pages/components/use-autosave';
import {
  editorDoc,
  unsavedSections,
  type EditorCommand,
  type EditorDoc,
  type EditorState,
} from '@/features/pages/lib/editor-commands';
import { saveState } from '@/features/pages/lib/save-state';
import type { PageBlock } from '@/features/pages/types';

/** Until the first save, the page's last update; nothing when the server sent none. */
function lastUpdate(updatedAt: string): Date | null {
  const at = new Date(updatedAt);
  return Number.isNaN(at.getTime()) ? null : at;
}

interface Options {
  page: Page;
  projectId: number;
  state: EditorState;
  dispatch: Dispatch<EditorCommand>;
  /** The page's output for a save (the canvas's rendered html, once its renders are done). */
  renderOutput: (blocks: PageBlock[]) => Promise<string>;
}

/**
 * The editor's two autosaves (spec §4): the page (its blocks, their output and its settings,
 * `POST /api/page/{id}`) after `pageVersion` moves, and each shared section the server does not
 * store as it is now (`unsavedSections`) after `sectionsVersion` moves. `save` saves both now;
 * `state` is the top bar's indicator for both.
 */
export function useEditorSave({ page, projectId, state, dispatch, renderOutput }: Options) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const update = useUpdatePage();
  const isHome = page.is_home || page.slug === '/';
  const doc = editorDoc(state);

  const pageSave = useAutosave({
    version: state.pageVersion,
    snapshot: doc,
    persist: async ({ blocks, fields }: EditorDoc) => {
      const output = await renderOutput(blocks);
      await update.mutateAsync({
        id: page.id,
        name: fields.name,
        // Normalised here too: autosave may run while the slug field still has the focus.
        slug: isHome ? '/' : normalizePageSlug(fields.slug),
        description: fields.description,
        image: fields.image || null,
        meta: fields.meta,
        blocks,
        output,
      });
    },
    onError: (error) => {
      console.error(error);
      toast.error(t('common.error'));
    },
    initialSavedAt: lastUpdate(page.updated_at),
  });

  const sectionsSave = useAutosave({
    version: state.sectionsVersion,
    snapshot: state,
    persist: async (snapshot: EditorState) => {
      for (const { section, block } of unsavedSections(snapshot)) {
        queryClient.setQueryData(queryKeys.sections(projectId), await saveSection(projectId, section, block));
        dispatch({ type: 'sectionSaved', section, block });
      }
    },
    onError: (error) => toast.error(errorMessage(error)),
    initialSavedAt: null,
  });

  const dirty = pageSave.dirty || sectionsSave.dirty;
  return {
    /** Saves the page now (before the server changes it: making a section). */
    savePage: pageSave.save,
    save: () => {
      void pageSave.save();
      void sectionsSave.save();
    },
    dirty,
    state: saveState(pageSave.saving || sectionsSave.saving, dirty, pageSave.savedAt),
  };
}
