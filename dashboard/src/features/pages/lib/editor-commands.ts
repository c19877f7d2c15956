/**
 * The page editor's state as a reducer of named commands (issue 43): add, duplicate, move and
 * remove a page block, edit a page block (a field, its code, an effect), edit a shared section,
 * edit the page's settings, bind a page block as the site's header or footer and unbind (unlink)
 * a shared section on this page; then undo and redo, and the editor's selection.
 *
 * What is edited is one document: the page's blocks, its settings and the project's shared
 * sections (`EditorDoc`). Every command that changes it records the document as it is after the
 * command, so undo and redo step over commands, and they cover edits to shared sections and page
 * settings as well as blocks. Snapshots rather than inverse commands: a field's change may be a
 * function of the value as it is when it lands (an upload finishing late, `ValueUpdater`), so its
 * inverse is only known once applied; a snapshot shares every unchanged block and section with
 * the one before, so it costs one array of references. As before, a command that changes
 * nothing records nothing (`record` compares with the current snapshot).
 *
 * Saving reads the state: `pageVersion` moves whenever the page's blocks or settings change (by a
 * command, an undo or a redo), and the page's autosave saves what is current then, so undoing
 * after a save saves the page as it is after the undo. `sectionsVersion` does the same for the
 * shared sections, and `unsavedSections` says which differ from what the server last stored
 * (`savedSections`, moved by `sectionSaved`): undoing a section's edit after it was saved makes
 * the section's earlier state the one to save again, undoing one not yet saved leaves nothing to
 * save. Binding is done by the server (`makeSection`), which also changes other pages: the
 * section it answers replaces that section in every snapshot, so undo gives the page its block
 * back but never a section the server no longer has.
 */
import {
  current,
  canRedo,
  canUndo,
  record,
  redo,
  startHistory,
  undo,
  type History,
} from '@/features/pages/lib/history';
import type { Page } from '@/lib/types';
import {
  duplicateBlock,
  insertBlock,
  moveBlock,
  readBlocks,
  removeBlock,
  toggleEffect,
  updateBlock,
  updateVar,
  type Effect,
} from '@/features/pages/lib/page-blocks';
import {
  SECTION_KINDS,
  SECTION_UID,
  sectionOf,
  unlinkSection,
  type SectionKind,
  type Sections,
} from '@/features/pages/lib/shared-sections';
import type { PageBlock, PageMeta, VarChange } from '@/features/pages/types';

/** The Page tab's settings, saved with the blocks. */
export interface PageFields {
  name: string;
  slug: string;
  description: string;
  image: string;
  meta: PageMeta;
}

/** What the editor edits: the page's blocks and settings, and the project's shared sections. */
export interface EditorDoc {
  blocks: PageBlock[];
  fields: PageFields;
  sections: Sections;
}

/** A block's code as the source-code modal applies it. */
export type BlockCode = Pick<PageBlock, 'template' | 'css' | 'js' | 'vars'>;

/** One change to a block: a field (a variable's value, binding or source), its code, or an effect. */
export type BlockEdit =
  | { kind: 'field'; name: string; change: VarChange }
  | { kind: 'code'; code: BlockCode }
  | { kind: 'effect'; effect: Effect };

export type EditorTab = 'page' | 'block';

/** The editor's commands: the first nine change the document (and can be undone). */
export type EditorCommand =
  /** A new block (its uid already chosen) at `index` of the page; it is selected. */
  | { type: 'add'; block: PageBlock; index: number }
  /** A copy of block `uid` right after it, as `copyUid`; the copy is selected. */
  | { type: 'duplicate'; uid: string; copyUid: string }
  /** Block `uid` moved so that it lands at `to`. */
  | { type: 'move'; uid: string; to: number }
  /** Block `uid` removed; the block now at its place (or the last one) is selected. */
  | { type: 'remove'; uid: string }
  /** An edit of a page block. */
  | { type: 'editBlock'; uid: string; edit: BlockEdit }
  /** An edit of a shared section: saved to the project, not to the page. */
  | { type: 'editSection'; section: SectionKind; edit: BlockEdit }
  /** The Page tab's settings. */
  | { type: 'editPage'; patch: Partial<PageFields> }
  /** The server made a page block the `section`: the page's blocks and the section as it answered. */
  | { type: 'bind'; section: SectionKind; blocks: PageBlock[]; block: PageBlock | undefined }
  /** This page gets its own copy of the `section` (as `uid`, selected) and leaves the shared one out. */
  | { type: 'unbind'; section: SectionKind; uid: string }
  | { type: 'undo' }
  | { type: 'redo' }
  /** A block chosen (on the canvas, or just added): it shows in the Block tab. */
  | { type: 'select'; uid: string | null }
  | { type: 'showTab'; tab: EditorTab }
  /** The server stored `block` as the section. */
  | { type: 'sectionSaved'; section: SectionKind; block: PageBlock };

export interface EditorState {
  history: History<EditorDoc>;
  /** Moves whenever the page's blocks or settings change: the page autosave's version. */
  pageVersion: number;
  /** Moves whenever a shared section changes: the sections autosave's version. */
  sectionsVersion: number;
  /** The sections as the server last stored them. */
  savedSections: Sections;
  selected: string | null;
  tab: EditorTab;
}

function readMeta(meta: unknown): PageMeta {
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? (meta as PageMeta) : {};
}

/** The document of a page as the server sent it, with the project's sections. */
export function pageDoc(
  page: Pick<Page, 'blocks' | 'name' | 'slug' | 'description' | 'image' | 'meta'>,
  sections: Sections,
): EditorDoc {
  return {
    blocks: readBlocks(page.blocks),
    fields: {
      name: page.name,
      slug: page.slug,
      description: page.description ?? '',
      image: page.image ?? '',
      meta: readMeta(page.meta),
    },
    sections,
  };
}

export function startEditor(doc: EditorDoc): EditorState {
  return {
    history: startHistory(doc),
    pageVersion: 0,
    sectionsVersion: 0,
    savedSections: doc.sections,
    selected: null,
    tab: 'block',
  };
}

/** The document as it is now. */
export function editorDoc(state: EditorState): EditorDoc {
  return current(state.history);
}

export function canUndoEdit(state: EditorState): boolean {
  return canUndo(state.history);
}

export function canRedoEdit(state: EditorState): boolean {
  return canRedo(state.history);
}

/** The command for an edit of the block the canvas or the Block tab calls `uid`: a section's or the page's. */
export function blockEditCommand(uid: string, edit: BlockEdit): EditorCommand {
  const section = sectionOf(uid);
  return section ? { type: 'editSection', section, edit } : { type: 'editBlock', uid, edit };
}

function same(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** The sections whose current state the server has not stored yet. */
export function unsavedSections(state: EditorState): { section: SectionKind; block: PageBlock }[] {
  const { sections } = editorDoc(state);
  return SECTION_KINDS.flatMap((section) => {
    const block = sections[section];
    return block && !same(block, state.savedSections[section]) ? [{ section, block }] : [];
  });
}

function editBlock(block: PageBlock, edit: BlockEdit): PageBlock {
  switch (edit.kind) {
    case 'field':
      return updateVar([block], block.uid, edit.name, edit.change)[0] ?? block;
    case 'code':
      return updateBlock([block], block.uid, edit.code)[0] ?? block;
    case 'effect':
      return { ...block, effect: toggleEffect(block.effect, edit.effect) };
  }
}

/** The document after one of its commands (the same document when the command changes nothing). */
function applyToDoc(doc: EditorDoc, command: EditorCommand): EditorDoc {
  const withBlocks = (blocks: PageBlock[]) => (blocks === doc.blocks ? doc : { ...doc, blocks });
  switch (command.type) {
    case 'add':
      return withBlocks(insertBlock(doc.blocks, command.block, command.index));
    case 'duplicate':
      return withBlocks(duplicateBlock(doc.blocks, command.uid, command.copyUid));
    case 'move':
      return withBlocks(moveBlock(doc.blocks, command.uid, command.to));
    case 'remove':
      return withBlocks(removeBlock(doc.blocks, command.uid));
    case 'editBlock':
      return withBlocks(
        doc.blocks.map((block) => (block.uid === command.uid ? editBlock(block, command.edit) : block)),
      );
    case 'editSection': {
      const block = doc.sections[command.section];
      if (!block) return doc;
      return { ...doc, sections: { ...doc.sections, [command.section]: editBlock(block, command.edit) } };
    }
    case 'editPage':
      return { ...doc, fields: { ...doc.fields, ...command.patch } };
    case 'bind':
      // The section is the server's in every snapshot already (see the reducer).
      return withBlocks(command.blocks);
    case 'unbind': {
      const block = doc.sections[command.section];
      if (!block) return doc;
      const unlinked = unlinkSection(doc.blocks, doc.fields.meta, command.section, block, command.uid);
      return { ...doc, blocks: unlinked.blocks, fields: { ...doc.fields, meta: unlinked.meta } };
    }
    default:
      return doc;
  }
}

function withSection(sections: Sections, section: SectionKind, block: PageBlock | undefined): Sections {
  const next = { ...sections };
  if (block) next[section] = block;
  else delete next[section];
  return next;
}

/** The state with its document moved from `before` to the history's current one: the versions follow. */
function moved(state: EditorState, history: History<EditorDoc>): EditorState {
  if (history === state.history) return state;
  const before = current(state.history);
  const after = current(history);
  return {
    ...state,
    history,
    pageVersion:
      state.pageVersion + (after.blocks !== before.blocks || after.fields !== before.fields ? 1 : 0),
    sectionsVersion: state.sectionsVersion + (after.sections !== before.sections ? 1 : 0),
  };
}

/** Who is selected after a document command that changed the document (the selection as it was for the others). */
function selectionAfter(state: EditorState, command: EditorCommand): string | null {
  switch (command.type) {
    case 'add':
      return command.block.uid;
    case 'duplicate':
      return command.copyUid;
    case 'remove': {
      const blocks = editorDoc(state).blocks;
      const index = blocks.findIndex((block) => block.uid === command.uid);
      const rest = removeBlock(blocks, command.uid);
      return rest[Math.min(index, rest.length - 1)]?.uid ?? null;
    }
    case 'bind':
      return SECTION_UID[command.section];
    case 'unbind':
      return command.uid;
    default:
      return state.selected;
  }
}

export function editorReducer(state: EditorState, command: EditorCommand): EditorState {
  switch (command.type) {
    case 'undo':
      return moved(state, undo(state.history));
    case 'redo':
      return moved(state, redo(state.history));
    case 'select':
      return { ...state, selected: command.uid, tab: 'block' };
    case 'showTab':
      return { ...state, tab: command.tab };
    case 'sectionSaved':
      return { ...state, savedSections: { ...state.savedSections, [command.section]: command.block } };
    case 'bind': {
      // What the server answered is the section in every snapshot: undo never brings back one it
      // no longer stores. The page's blocks are a new snapshot, as any command's.
      const rebased: History<EditorDoc> = {
        ...state.history,
        entries: state.history.entries.map((doc) => ({
          ...doc,
          sections: withSection(doc.sections, command.section, command.block),
        })),
      };
      const next = moved(
        { ...state, history: rebased },
        record(rebased, applyToDoc(current(rebased), command)),
      );
      return {
        ...next,
        // The server already stores the section: nothing of it to save.
        sectionsVersion: state.sectionsVersion,
        savedSections: withSection(state.savedSections, command.section, command.block),
        selected: selectionAfter(state, command),
      };
    }
    default: {
      const before = editorDoc(state);
      const after = applyToDoc(before, command);
      // A command that changes nothing (a block no longer there) leaves the selection too.
      if (after === before) return state;
      const next = moved(state, record(state.history, after));
      const selected = selectionAfter(state, command);
      // A block just added shows in the Block tab, as one chosen on the canvas.
      if (command.type === 'add') return { ...next, selected, tab: 'block' };
      return selected === next.selected ? next : { ...next, selected };
    }
  }
}
