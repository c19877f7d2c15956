import { DndContext } from '@dnd-kit/core';
import { lazy, Suspense, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '@/components/ConfirmDialog';
import { useNavigate } from 'react-router';
import { paths } from '@/app/paths';
import { Alert } from '@/components/Alert';
import { PageLoader } from '@/components/PageLoader';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { useUser } from '@/lib/auth/get-user';
import { useNumberParam, useProject } from '@/lib/project-route';
import type { Page, ProjectDetail, User } from '@/lib/types';
import { useBlocks } from '@/features/pages/api/get-blocks';
import { usePage } from '@/features/pages/api/get-page';
import { pagePreviewUrl } from '@/features/pages/api/preview-url';
import { useSections } from '@/features/pages/api/sections';
import { BlockLibraryPanel } from '@/features/pages/components/BlockLibraryPanel';
import { CanvasFrame, type DragData } from '@/features/pages/components/CanvasFrame';
import { EditorContext, type EditorContextValue } from '@/features/pages/components/editor-context';
import { EditorSidePanel } from '@/features/pages/components/EditorSidePanel';
import { EditorTopBar } from '@/features/pages/components/EditorTopBar';
import { useCanvas } from '@/features/pages/components/use-canvas';
import { useCollectionPage } from '@/features/pages/components/use-collection-page';
import { useBlockDrag } from '@/features/pages/components/use-block-drag';
import { useEditorSave } from '@/features/pages/components/use-editor-save';
import { useEditorState } from '@/features/pages/components/use-editor-state';
import { useLeaveGuard } from '@/features/pages/components/use-leave-guard';
import { usePreviewSize } from '@/features/pages/components/use-preview-size';
import { useSectionCommands } from '@/features/pages/components/use-section-commands';
import { SmallScreenNotice } from '@/features/pages/components/SmallScreenNotice';
import { blockEditCommand, pageDoc, type BlockEdit } from '@/features/pages/lib/editor-commands';
import { blockFromSource, moveTarget, newUid, sourceBlock } from '@/features/pages/lib/page-blocks';
import { footerTest, insertPosition } from '@/features/pages/lib/insert-position';
import {
  canvasBlocks,
  pageIndex,
  sectionOf,
  shownSections,
  type Sections,
} from '@/features/pages/lib/shared-sections';
import { starterBlocks } from '@/features/pages/lib/starter-blocks';
import type { BlockLibrary, BlockSource } from '@/features/pages/types';

const SourceCodeModal = lazy(() => import('@/features/pages/components/SourceCodeModal'));

/** The Deploy button's modal, supplied by the app (features don't import each other). */
export type DeploySlot = (project: ProjectDetail, onClose: () => void) => ReactNode;

/** The top bar's publish dropdown, supplied by the app; `blocked` while there are unsaved changes. */
export type PublishMenuSlot = (project: ProjectDetail, blocked: boolean) => ReactNode;

interface EditorProps {
  page: Page;
  project: ProjectDetail;
  library: BlockLibrary;
  user: User;
  sections: Sections;
  deploy?: DeploySlot | undefined;
  publishMenu?: PublishMenuSlot | undefined;
}

/**
 * The editor: its state is `lib/editor-commands.ts`'s, changed only by dispatching commands
 * (`use-editor-state.ts`); this component turns the panels' and the canvas's events into commands
 * and does what needs the server or the user first (a confirmation, making a shared section).
 */
function Editor({ page, project, library, user, sections, deploy, publishMenu }: EditorProps) {
  const { t } = useTranslation();
  const [confirmDialog, askConfirm] = useConfirm();
  const navigate = useNavigate();

  const { state, doc, dispatch, canUndo, canRedo } = useEditorState(() => pageDoc(page, sections));
  const { blocks, fields } = doc;
  const { selected } = state;
  // The project's shared header and footer: edited here for every page, saved on their own.
  const shown = useMemo(() => shownSections(doc.sections, fields.meta), [doc.sections, fields.meta]);
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

  const { collection, postSlug, setPostSlug, bindCollection, binding } = useCollectionPage(
    page.id,
    page.table_id,
  );

  /** An edit of the block the canvas or the Block tab calls `uid` (a page block or a shared section). */
  const edit = (uid: string, change: BlockEdit) => dispatch(blockEditCommand(uid, change));
  const canvas = useCanvas({
    projectId: project.id,
    pageId: page.id,
    tableId: page.table_id,
    post: postSlug,
    blocks: onCanvas,
    selected,
    onSelect: (uid) => dispatch({ type: 'select', uid }),
    onInlineEdit: (uid, name, value) => edit(uid, { kind: 'field', name, change: { value } }),
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
  const freshUid = () => newUid(new Set(blocks.map((block) => block.uid)));
  const insert = (source: BlockSource, id: number, index: number = blocks.length) => {
    const origin = sourceBlock(library, source, id);
    if (!origin) return;
    const made = blockFromSource(origin, source, freshUid());
    if (!made.ok) {
      toast.error(t('editor.source.xVarsError') + made.reason);
      return;
    }
    dispatch({ type: 'add', block: made.block, index });
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
    if (confirmed) dispatch({ type: 'remove', uid: selectedBlock.uid });
  };

  // --- saving ------------------------------------------------------------------------------
  const saving = useEditorSave({
    page,
    projectId: project.id,
    state,
    dispatch,
    renderOutput: canvas.output,
  });

  const sectionCommands = useSectionCommands({
    projectId: project.id,
    pageId: page.id,
    doc,
    selected,
    dispatch,
    askConfirm,
    savePage: saving.savePage,
  });

  const leaveDialog = useLeaveGuard(saving.dirty, t('editor.leaveConfirm'));

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
        dispatch({ type: 'move', uid: data.uid, to: moveTarget(blocks, data.uid, at) });
    },
  });

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
            canUndo={canUndo}
            canRedo={canRedo}
            onUndo={() => dispatch({ type: 'undo' })}
            onRedo={() => dispatch({ type: 'redo' })}
            state={saving.state}
            onSave={saving.save}
            onPreview={() => window.open(pagePreviewUrl(project.id, page.id, postSlug), '_blank', 'noopener')}
            onDeploy={() => setDeployOpen(true)}
            publishMenu={publishMenu?.(project, saving.state.kind !== 'saved')}
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
            <EditorSidePanel
              tab={state.tab}
              onTab={(tab) => dispatch({ type: 'showTab', tab })}
              posts={page.table_id !== null ? (collection.data?.posts ?? []) : null}
              post={postSlug}
              onPost={setPostSlug}
              page={{
                fields,
                isHome,
                tableId: page.table_id,
                onCollectionChange: bindCollection,
                binding,
                sections: {
                  header: doc.sections.header !== undefined,
                  footer: doc.sections.footer !== undefined,
                },
                onChange: (patch) => dispatch({ type: 'editPage', patch }),
              }}
              block={{
                block: selectedBlock,
                index: selectedIndex,
                count: blocks.length,
                onVarChange: (name, change) =>
                  selectedBlock && edit(selectedBlock.uid, { kind: 'field', name, change }),
                onToggleEffect: (effect) =>
                  selectedBlock && edit(selectedBlock.uid, { kind: 'effect', effect }),
                onMove: (to) => selectedBlock && dispatch({ type: 'move', uid: selectedBlock.uid, to }),
                onDuplicate: () =>
                  selectedBlock &&
                  dispatch({ type: 'duplicate', uid: selectedBlock.uid, copyUid: freshUid() }),
                onRemove: () => void removeSelected(),
                onEditCode: () => setCodeOpen(true),
                shared: selectedSection,
                onMakeSection: (kind) => void sectionCommands.bind(kind),
                onUnlink: sectionCommands.unbind,
              }}
            />
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
            onApply={(code) => edit(selectedBlock.uid, { kind: 'code', code })}
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
