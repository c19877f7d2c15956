import { DndContext } from '@dnd-kit/core';
import { lazy, Suspense, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '@/components/ConfirmDialog';
import { useNavigate } from 'react-router';
import { paths } from '@/app/paths';
import { Alert } from '@/components/Alert';
import { PageLoader } from '@/components/PageLoader';
import { toast } from '@/components/toast';
import { Tabs } from '@/components/ui/Tabs';
import { errorMessage } from '@/lib/api-client';
import { normalizePageSlug } from '@/lib/validation';
import { useUser } from '@/lib/auth/get-user';
import { useNumberParam, useProject } from '@/lib/project-route';
import { queryKeys } from '@/lib/query-keys';
import type { Page, ProjectDetail, User } from '@/lib/types';
import { useBlocks } from '@/features/pages/api/get-blocks';
import { useCollectionData } from '@/features/pages/api/get-collection-data';
import { usePage } from '@/features/pages/api/get-page';
import { pagePreviewUrl } from '@/features/pages/api/preview-url';
import { makeSection, saveSection, useSections } from '@/features/pages/api/sections';
import { useUpdatePage } from '@/features/pages/api/update-page';
import { BlockLibraryPanel } from '@/features/pages/components/BlockLibraryPanel';
import { BlockTab } from '@/features/pages/components/BlockTab';
import { CanvasFrame, type DragData } from '@/features/pages/components/CanvasFrame';
import { EditorContext, type EditorContextValue } from '@/features/pages/components/editor-context';
import { EditorTopBar } from '@/features/pages/components/EditorTopBar';
import { PageTab, type PageFields } from '@/features/pages/components/PageTab';
import { PostSelect } from '@/features/pages/components/PostSelect';
import type { AppliedCode } from '@/features/pages/components/SourceCodeModal';
import { useCanvas } from '@/features/pages/components/use-canvas';
import { useAutosave } from '@/features/pages/components/use-autosave';
import { useBlockDrag } from '@/features/pages/components/use-block-drag';
import { useBlockHistory } from '@/features/pages/components/use-block-history';
import { useLeaveGuard } from '@/features/pages/components/use-leave-guard';
import { usePreviewSize } from '@/features/pages/components/use-preview-size';
import { SmallScreenNotice } from '@/features/pages/components/SmallScreenNotice';
import {
  blockFromSource,
  duplicateBlock,
  insertBlock,
  moveBlock,
  moveTarget,
  newUid,
  readBlocks,
  removeBlock,
  sourceBlock,
  toggleEffect,
  updateBlock,
  updateVar,
  type Effect,
} from '@/features/pages/lib/page-blocks';
import { saveState } from '@/features/pages/lib/save-state';
import { footerTest, insertPosition } from '@/features/pages/lib/insert-position';
import {
  canvasBlocks,
  pageIndex,
  SECTION_UID,
  sectionOf,
  shownSections,
  unlinkSection,
  type SectionKind,
  type Sections,
} from '@/features/pages/lib/shared-sections';
import { starterBlocks } from '@/features/pages/lib/starter-blocks';
import type { BlockLibrary, BlockSource, PageBlock, PageMeta, VarChange } from '@/features/pages/types';

const SourceCodeModal = lazy(() => import('@/features/pages/components/SourceCodeModal'));

/** The Deploy button's modal, supplied by the app (features don't import each other). */
export type DeploySlot = (project: ProjectDetail, onClose: () => void) => ReactNode;

/** The top bar's publish dropdown, supplied by the app; `blocked` while there are unsaved changes. */
export type PublishMenuSlot = (project: ProjectDetail, blocked: boolean) => ReactNode;

/** Until the first save, the page's last update; nothing when the server sent none. */
function lastUpdate(updatedAt: string): Date | null {
  const at = new Date(updatedAt);
  return Number.isNaN(at.getTime()) ? null : at;
}

function readMeta(meta: unknown): PageMeta {
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? (meta as PageMeta) : {};
}

interface EditorProps {
  page: Page;
  project: ProjectDetail;
  library: BlockLibrary;
  user: User;
  sections: Sections;
  deploy?: DeploySlot | undefined;
  publishMenu?: PublishMenuSlot | undefined;
}

function Editor({
  page,
  project,
  library,
  user,
  sections: initialSections,
  deploy,
  publishMenu,
}: EditorProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [confirmDialog, askConfirm] = useConfirm();
  const navigate = useNavigate();
  const update = useUpdatePage();

  const [version, setVersion] = useState(0);
  const history = useBlockHistory(
    () => readBlocks(page.blocks),
    () => setVersion((v) => v + 1),
  );
  const { blocks, commit } = history;
  const [selected, setSelected] = useState<string | null>(null);
  const [tab, setTab] = useState<'page' | 'block'>('block');
  /** A block chosen on the canvas (or just added) shows in the Block tab. */
  const select = (uid: string) => {
    setSelected(uid);
    setTab('block');
  };
  const [fields, setFields] = useState<PageFields>({
    name: page.name,
    slug: page.slug,
    description: page.description ?? '',
    image: page.image ?? '',
    meta: readMeta(page.meta),
  });
  // The project's shared header and footer: edited here for every page, saved on their own.
  const [shared, setShared] = useState<Sections>(initialSections);
  const [sharedVersion, setSharedVersion] = useState(0);
  const sharedDirty = useRef(new Set<SectionKind>());
  const shown = useMemo(() => shownSections(shared, fields.meta), [shared, fields.meta]);
  const onCanvas = useMemo(
    () =>
      canvasBlocks(blocks, shown, (kind, name) =>
        t(kind === 'header' ? 'editor.sections.headerLabel' : 'editor.sections.footerLabel', { name }),
      ),
    [blocks, shown, t],
  );
  const size = usePreviewSize();
  const [codeOpen, setCodeOpen] = useState(false);
  const [deployOpen, setDeployOpen] = useState(false);
  const isHome = page.is_home || page.slug === '/';

  // Collection pages: the post the preview shows, and the fields blocks can bind to.
  const collection = useCollectionData(page.table_id);
  // The chosen post, else the collection's first one.
  const [chosenPostSlug, setPostSlug] = useState<string | undefined>(undefined);
  const postSlug = chosenPostSlug ?? collection.data?.posts[0]?.slug;

  // Binding or unbinding a collection is saved at once: the render API reads the post from the
  // page's stored collection. The page query then carries the new `table_id`.
  const bind = useUpdatePage();
  const bindCollection = (tableId: number | null) => {
    bind.mutate(
      { id: page.id, table_id: tableId },
      {
        onSuccess: () => setPostSlug(undefined),
        onError: (error) => toast.error(errorMessage(error)),
      },
    );
  };

  const canvas = useCanvas({
    projectId: project.id,
    pageId: page.id,
    tableId: page.table_id,
    post: postSlug,
    blocks: onCanvas,
    selected,
    onSelect: select,
    onInlineEdit: (uid, name, value) => commit((list) => updateVar(list, uid, name, { value })),
  });

  const context = useMemo<EditorContextValue>(
    () => ({
      userId: user.id,
      projectId: project.id,
      tables: project.tables,
      postFields: page.table_id !== null ? (collection.data?.fields ?? []) : null,
      pages: project.pages,
      pageId: page.id,
    }),
    [user.id, project.id, project.tables, project.pages, page.id, page.table_id, collection.data],
  );

  // --- edits -------------------------------------------------------------------------------
  const changeShared = (kind: SectionKind, change: (block: PageBlock) => PageBlock) => {
    setShared((previous) => {
      const block = previous[kind];
      return block ? { ...previous, [kind]: change(block) } : previous;
    });
    sharedDirty.current.add(kind);
    setSharedVersion((v) => v + 1);
  };
  const changeFields = (patch: Partial<PageFields>) => {
    setFields((previous) => ({ ...previous, ...patch }));
    setVersion((v) => v + 1);
  };

  const insert = (source: BlockSource, id: number, index: number = blocks.length) => {
    const origin = sourceBlock(library, source, id);
    if (!origin) return;
    const made = blockFromSource(origin, source, newUid(new Set(blocks.map((block) => block.uid))));
    if (!made.ok) {
      toast.error(t('editor.source.xVarsError') + made.reason);
      return;
    }
    commit((list) => insertBlock(list, made.block, index));
    select(made.block.uid);
  };

  const isFooter = useMemo(() => footerTest(library), [library]);
  const starters = useMemo(() => starterBlocks(library.categories), [library]);
  const add = (source: BlockSource, id: number) =>
    insert(source, id, insertPosition(blocks, selected, isFooter));

  const selectedSection = sectionOf(selected);
  const selectedIndex = blocks.findIndex((block) => block.uid === selected);
  const selectedBlock = selectedSection
    ? shown[selectedSection]
    : selectedIndex >= 0
      ? (blocks[selectedIndex] ?? null)
      : null;

  const removeSelected = async () => {
    if (!selectedBlock) return;
    const confirmed = await askConfirm({
      title: t('editor.block.confirmRemove'),
      message: t('kit.confirm.removeBlockMessage'),
      confirmLabel: t('common.remove'),
      destructive: true,
    });
    if (!confirmed) return;
    const next = removeBlock(blocks, selectedBlock.uid);
    commit((list) => removeBlock(list, selectedBlock.uid));
    setSelected(next[Math.min(selectedIndex, next.length - 1)]?.uid ?? null);
  };

  const duplicateSelected = () => {
    if (!selectedBlock) return;
    const uid = newUid(new Set(blocks.map((block) => block.uid)));
    commit((list) => duplicateBlock(list, selectedBlock.uid, uid));
    setSelected(uid);
  };

  const applyCode = (code: AppliedCode) => {
    if (selectedSection) changeShared(selectedSection, (block) => ({ ...block, ...code }));
    else if (selectedBlock) commit((list) => updateBlock(list, selectedBlock.uid, code));
  };

  // --- saving ------------------------------------------------------------------------------
  const renderOutput = canvas.output;
  const { save, saving, savedAt, dirty } = useAutosave({
    version,
    snapshot: { blocks, fields },
    persist: async (snapshot: { blocks: PageBlock[]; fields: PageFields }) => {
      const output = await renderOutput(snapshot.blocks);
      await update.mutateAsync({
        id: page.id,
        name: snapshot.fields.name,
        // Normalised here too: autosave may run while the slug field still has the focus.
        slug: isHome ? '/' : normalizePageSlug(snapshot.fields.slug),
        description: snapshot.fields.description,
        image: snapshot.fields.image || null,
        meta: snapshot.fields.meta,
        blocks: snapshot.blocks,
        output,
      });
    },
    onError: (error) => {
      console.error(error);
      toast.error(t('common.error'));
    },
    initialSavedAt: lastUpdate(page.updated_at),
  });

  const sharedSave = useAutosave({
    version: sharedVersion,
    snapshot: shared,
    persist: async (snapshot: Sections) => {
      for (const kind of [...sharedDirty.current]) {
        const block = snapshot[kind];
        sharedDirty.current.delete(kind);
        if (!block) continue;
        try {
          queryClient.setQueryData(
            queryKeys.sections(project.id),
            await saveSection(project.id, kind, block),
          );
        } catch (error) {
          sharedDirty.current.add(kind);
          throw error;
        }
      }
    },
    onError: (error) => toast.error(errorMessage(error)),
    initialSavedAt: null,
  });

  // A page block becomes the site's header or footer: saved first, so the server moves what
  // the owner sees; the page then shows the answer.
  const makeShared = async (kind: SectionKind) => {
    if (!selectedBlock || selectedSection) return;
    if (shared[kind]) {
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
      await save();
      const made = await makeSection(project.id, page.id, kind, selectedBlock.uid);
      commit(() => readBlocks(made.page.blocks));
      setShared(made.sections);
      queryClient.setQueryData(queryKeys.sections(project.id), made.sections);
      setSelected(SECTION_UID[kind]);
      toast.success(t('editor.sections.made'));
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };

  // "Unlink" on this page: a page copy of the section, and the page leaves the shared one out.
  const unlinkShared = () => {
    const block = selectedSection ? shared[selectedSection] : undefined;
    if (!selectedSection || !block) return;
    const unlinked = unlinkSection(blocks, fields.meta, selectedSection, block);
    commit(() => unlinked.blocks);
    changeFields({ meta: unlinked.meta });
    setSelected(unlinked.uid);
    toast.success(t('editor.sections.unlinked'));
  };

  const leaveDialog = useLeaveGuard(dirty || sharedSave.dirty, t('editor.leaveConfirm'));

  // --- drag and drop -----------------------------------------------------------------------
  const drag = useBlockDrag({
    blockCount: blocks.length,
    labelOf: (data: DragData) =>
      (data.kind === 'move'
        ? onCanvas.find((block) => block.uid === data.uid)?.name
        : sourceBlock(library, data.source, data.id)?.name) ?? '',
    onDrop: (data, index) => {
      // The canvas shows the shared header above the page's blocks; they stay where they are.
      const at = pageIndex(index, shown.header !== null, blocks.length);
      if (data.kind === 'insert') insert(data.source, data.id, at);
      else if (!sectionOf(data.uid))
        commit((list) => moveBlock(list, data.uid, moveTarget(list, data.uid, at)));
    },
  });

  /** The side panel's Page and Block tabs: `page-tab` and its `page-panel`, and the same for a block. */
  const panelTab = (id: 'page' | 'block', content: ReactNode) => ({
    id,
    label: t(id === 'page' ? 'editor.tabs.page' : 'editor.tabs.block'),
    testId: `${id}-tab`,
    panelTestId: `${id}-panel`,
    content,
  });

  const state = saveState(saving || sharedSave.saving, dirty || sharedSave.dirty, savedAt);

  return (
    <EditorContext.Provider value={context}>
      <DndContext {...drag.contextProps}>
        <div className="editor" data-testid="page-editor">
          <SmallScreenNotice projectId={project.id} />
          <EditorTopBar
            projectId={project.id}
            projectName={project.name}
            pages={project.pages}
            pageId={page.id}
            onPageChange={(id) => void navigate(paths.page.build({ projectId: project.id, pageId: id }))}
            size={size}
            canUndo={history.canUndo}
            canRedo={history.canRedo}
            onUndo={history.undo}
            onRedo={history.redo}
            state={state}
            onSave={() => {
              void save();
              void sharedSave.save();
            }}
            onPreview={() => window.open(pagePreviewUrl(project.id, page.id, postSlug), '_blank', 'noopener')}
            onDeploy={() => setDeployOpen(true)}
            publishMenu={publishMenu?.(project, state.kind !== 'saved')}
          />
          <div className="editor-body">
            <BlockLibraryPanel
              library={library}
              onInsert={add}
              business={user.business_id !== null ? { canManage: user.is_business_admin } : null}
            />
            <CanvasFrame
              canvas={canvas}
              size={size}
              drag={drag}
              starters={starters}
              onAddStarter={(id) => add('library', id)}
            />
            <aside className="editor-panel">
              {page.table_id !== null && (
                <PostSelect posts={collection.data?.posts ?? []} value={postSlug} onChange={setPostSlug} />
              )}
              <Tabs
                aria-label={t('kit.editorTabs')}
                className="editor-tabs"
                selectedKey={tab}
                onSelectionChange={(key) => setTab(key as 'page' | 'block')}
                items={[
                  panelTab(
                    'page',
                    <PageTab
                      fields={fields}
                      isHome={isHome}
                      tableId={page.table_id}
                      onCollectionChange={bindCollection}
                      binding={bind.isPending}
                      sections={{
                        header: shared.header !== undefined,
                        footer: shared.footer !== undefined,
                      }}
                      onChange={changeFields}
                    />,
                  ),
                  panelTab(
                    'block',
                    <BlockTab
                      block={selectedBlock}
                      index={selectedIndex}
                      count={blocks.length}
                      onVarChange={(name: string, change: VarChange) => {
                        if (selectedSection) {
                          changeShared(
                            selectedSection,
                            (block) => updateVar([block], block.uid, name, change)[0] ?? block,
                          );
                        } else if (selectedBlock) {
                          commit((list) => updateVar(list, selectedBlock.uid, name, change));
                        }
                      }}
                      onToggleEffect={(effect: Effect) =>
                        selectedBlock &&
                        commit((list) =>
                          list.map((b) =>
                            b.uid === selectedBlock.uid
                              ? { ...b, effect: toggleEffect(b.effect, effect) }
                              : b,
                          ),
                        )
                      }
                      onMove={(to) =>
                        selectedBlock && commit((list) => moveBlock(list, selectedBlock.uid, to))
                      }
                      onDuplicate={duplicateSelected}
                      onRemove={() => void removeSelected()}
                      onEditCode={() => setCodeOpen(true)}
                      shared={selectedSection}
                      onMakeSection={(kind) => void makeShared(kind)}
                      onUnlink={unlinkShared}
                    />,
                  ),
                ]}
              />
            </aside>
          </div>
        </div>
        {drag.preview}
      </DndContext>
      {codeOpen && selectedBlock && (
        <Suspense fallback={null}>
          <SourceCodeModal
            key={selectedBlock.uid}
            block={selectedBlock}
            library={library}
            canSaveToLibrary={user.is_admin}
            canSaveToBusiness={user.is_business_admin && user.business_id !== null}
            onApply={applyCode}
            onClose={() => setCodeOpen(false)}
          />
        </Suspense>
      )}
      {deployOpen && deploy?.(project, () => setDeployOpen(false))}
      {leaveDialog}
      {confirmDialog}
    </EditorContext.Provider>
  );
}

/**
 * "/project/{project_id}/{page_id}": the page editor (spec §2). Loads the page, its project
 * (pages for the menu, collections), the block library and the user; a page that can't be
 * loaded sends the user to "/" (spec §8). Keyed by page so switching pages starts afresh.
 */
export function PageEditorRoute({
  deploy,
  publishMenu,
}: {
  deploy?: DeploySlot;
  publishMenu?: PublishMenuSlot;
}) {
  const navigate = useNavigate();
  const projectId = useNumberParam('projectId');
  const pageId = useNumberParam('pageId');
  const page = usePage(projectId, pageId);
  const project = useProject(projectId);
  const library = useBlocks();
  const sections = useSections(projectId);
  const user = useUser();
  const reported = useRef(false);
  const failed = page.isError || project.isError || Number.isNaN(pageId);

  useEffect(() => {
    if (failed && !reported.current) {
      reported.current = true;
      if (page.error) toast.error(errorMessage(page.error));
      void navigate(paths.home.build(), { replace: true });
    }
  }, [failed, page.error, navigate]);

  if (library.isError) return <Alert>{errorMessage(library.error)}</Alert>;
  if (sections.isError) return <Alert>{errorMessage(sections.error)}</Alert>;
  if (!page.data || !project.data || !library.data || !user.data || !sections.data) return <PageLoader />;
  return (
    <Editor
      key={page.data.id}
      page={page.data}
      project={project.data}
      library={library.data}
      user={user.data}
      sections={sections.data}
      deploy={deploy}
      publishMenu={publishMenu}
    />
  );
}
