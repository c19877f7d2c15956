import type { Dispatch } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ConfirmOptions } from '@/components/ConfirmDialog';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { makeSection } from '@/features/pages/api/sections';
import type { EditorCommand, EditorDoc } from '@/features/pages/lib/editor-commands';
import { newUid, readBlocks } from '@/features/pages/lib/page-blocks';
import { sectionOf, type SectionKind } from '@/features/pages/lib/shared-sections';

interface Options {
  projectId: number;
  pageId: number;
  doc: EditorDoc;
  selected: string | null;
  dispatch: Dispatch<EditorCommand>;
  askConfirm: (options: ConfirmOptions) => Promise<boolean>;
  /** Saves the page now: the server then moves the block as the owner sees it. */
  savePage: () => Promise<void>;
}

/**
 * Binding a page block as the site's header or footer, and unbinding (unlinking) a shared
 * section on this page: the `bind` and `unbind` commands, with what comes before them (asking
 * before a section is replaced, the server's `makeSection`) and the toasts after.
 */
export function useSectionCommands({
  projectId,
  pageId,
  doc,
  selected,
  dispatch,
  askConfirm,
  savePage,
}: Options) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const selectedSection = sectionOf(selected);

  // A page block becomes the site's header or footer: saved first, so the server moves what
  // the owner sees; the page then shows the answer.
  const bind = async (kind: SectionKind) => {
    const uid = selected;
    if (uid === null || selectedSection || !doc.blocks.some((block) => block.uid === uid)) return;
    if (doc.sections[kind]) {
      const confirmed = await askConfirm({
        title: t(
          kind === 'header' ? 'editor.sections.replaceHeaderTitle' : 'editor.sections.replaceFooterTitle',
        ),
        message: t('editor.sections.replaceMessage'),
        confirmLabel: t('editor.sections.replace'),
      });
      if (!confirmed) return;
    }
    try {
      await savePage();
      const made = await makeSection(projectId, pageId, kind, uid);
      dispatch({
        type: 'bind',
        section: kind,
        blocks: readBlocks(made.page.blocks),
        block: made.sections[kind],
      });
      queryClient.setQueryData(queryKeys.sections(projectId), made.sections);
      toast.success(t('editor.sections.made'));
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };

  // "Unlink" on this page: a page copy of the section, and the page leaves the shared one out.
  const unbind = () => {
    if (!selectedSection || !doc.sections[selectedSection]) return;
    dispatch({
      type: 'unbind',
      section: selectedSection,
      uid: newUid(new Set(doc.blocks.map((block) => block.uid))),
    });
    toast.success(t('editor.sections.unlinked'));
  };

  return { bind, unbind };
}
