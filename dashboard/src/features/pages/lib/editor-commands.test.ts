import { describe, expect, it } from 'vitest';
import type { PageBlock } from '@/features/pages/types';
import {
  blockEditCommand,
  canRedoEdit,
  canUndoEdit,
  editorDoc,
  editorReducer,
  pageDoc,
  startEditor,
  unsavedSections,
  type BlockEdit,
  type EditorCommand,
  type EditorDoc,
  type EditorState,
} from './editor-commands';

const block = (uid: string, value = uid): PageBlock => ({
  uid,
  name: uid.toUpperCase(),
  template: `<p>{{ text }}</p>`,
  css: '',
  js: '',
  vars: [{ name: 'text', type: 'text', value }],
});

const header: PageBlock = { ...block('global-header', 'Padaria'), name: 'Cabeçalho' };

function doc(overrides: Partial<EditorDoc> = {}): EditorDoc {
  return {
    blocks: [block('a'), block('b'), block('c')],
    fields: { name: 'Início', slug: '/', description: '', image: '', meta: {} },
    sections: { header },
    ...overrides,
  };
}

/** The state after each command in turn. */
function run(commands: EditorCommand[], start: EditorState = startEditor(doc())): EditorState {
  return commands.reduce(editorReducer, start);
}

const uids = (state: EditorState) => editorDoc(state).blocks.map((b) => b.uid);
const text = (b: PageBlock | undefined) => b?.vars[0]?.value;
const textEdit = (value: unknown): BlockEdit => ({ kind: 'field', name: 'text', change: { value } });
const setText = (value: unknown): EditorCommand => ({ type: 'editBlock', uid: 'a', edit: textEdit(value) });
const setBrand = (value: string): EditorCommand => ({
  type: 'editSection',
  section: 'header',
  edit: { kind: 'field', name: 'text', change: { value } },
});

describe('the editor document', () => {
  it("is read from the page as the server sent it, with the project's sections", () => {
    const read = pageDoc(
      { name: 'Sobre', slug: 'sobre', description: null, image: null, meta: 'junk', blocks: [block('a'), 7] },
      {},
    );
    expect(read).toEqual({
      blocks: [block('a')],
      fields: { name: 'Sobre', slug: 'sobre', description: '', image: '', meta: {} },
      sections: {},
    });
  });

  it('starts with nothing to undo, redo or save, and nothing selected', () => {
    const state = startEditor(doc());
    expect(canUndoEdit(state)).toBe(false);
    expect(canRedoEdit(state)).toBe(false);
    expect(unsavedSections(state)).toEqual([]);
    expect(state).toMatchObject({ pageVersion: 0, sectionsVersion: 0, selected: null, tab: 'block' });
  });
});

describe('block commands', () => {
  it('adds a block at its place, selects it and shows the Block tab', () => {
    const start = run([{ type: 'showTab', tab: 'page' }]);
    const state = run([{ type: 'add', block: block('n'), index: 1 }], start);
    expect(uids(state)).toEqual(['a', 'n', 'b', 'c']);
    expect(state).toMatchObject({ selected: 'n', tab: 'block', pageVersion: 1, sectionsVersion: 0 });
  });

  it('duplicates a block right after it and selects the copy', () => {
    const state = run([{ type: 'duplicate', uid: 'b', copyUid: 'b2' }]);
    expect(uids(state)).toEqual(['a', 'b', 'b2', 'c']);
    expect(editorDoc(state).blocks[2]).toEqual({ ...block('b'), uid: 'b2' });
    expect(state.selected).toBe('b2');
  });

  it('moves a block', () => {
    expect(uids(run([{ type: 'move', uid: 'a', to: 2 }]))).toEqual(['b', 'c', 'a']);
  });

  it('removes a block and selects the one now at its place, else the last, else none', () => {
    const middle = run([
      { type: 'select', uid: 'b' },
      { type: 'remove', uid: 'b' },
    ]);
    expect(uids(middle)).toEqual(['a', 'c']);
    expect(middle.selected).toBe('c');
    expect(run([{ type: 'remove', uid: 'c' }]).selected).toBe('b');
    const alone = run([{ type: 'remove', uid: 'a' }], startEditor(doc({ blocks: [block('a')] })));
    expect(alone.selected).toBeNull();
  });

  it('edits a field, its code and its effects; an updater applies to the value as it is when it lands', () => {
    const state = run([
      setText('Olá'),
      {
        type: 'editBlock',
        uid: 'a',
        edit: { kind: 'field', name: 'text', change: (v) => ({ value: `${String(v.value)}!` }) },
      },
      { type: 'editBlock', uid: 'a', edit: { kind: 'effect', effect: 'zoom-in' } },
      { type: 'editBlock', uid: 'a', edit: { kind: 'effect', effect: 'fade-in' } },
      {
        type: 'editBlock',
        uid: 'a',
        edit: { kind: 'code', code: { template: '<h1>x</h1>', css: 'h1{}', js: '', vars: [] } },
      },
    ]);
    expect(editorDoc(state).blocks[0]).toEqual({
      ...block('a'),
      template: '<h1>x</h1>',
      css: 'h1{}',
      vars: [],
      effect: 'fade-in zoom-in',
    });
    expect(state.pageVersion).toBe(5);
  });

  it('records nothing for an edit that changes nothing', () => {
    const start = startEditor(doc());
    expect(editorReducer(start, setText('a'))).toBe(start);
    expect(editorReducer(start, { type: 'move', uid: 'a', to: 0 })).toBe(start);
    expect(editorReducer(start, { type: 'editBlock', uid: 'nobody', edit: textEdit('x') })).toBe(start);
  });

  it("sends an edit of a section's uid to the section, any other to the page", () => {
    const edit = { kind: 'effect', effect: 'fade-in' } as const;
    expect(blockEditCommand('global-header', edit)).toEqual({ type: 'editSection', section: 'header', edit });
    expect(blockEditCommand('global-footer', edit)).toEqual({ type: 'editSection', section: 'footer', edit });
    expect(blockEditCommand('a', edit)).toEqual({ type: 'editBlock', uid: 'a', edit });
  });
});

describe('undo and redo', () => {
  it('step over commands, each undone whole, and a new command drops what could be redone', () => {
    const edited = run([setText('A'), setText('B'), { type: 'move', uid: 'a', to: 2 }]);
    const back = run([{ type: 'undo' }, { type: 'undo' }], edited);
    expect(uids(back)).toEqual(['a', 'b', 'c']);
    expect(text(editorDoc(back).blocks[0])).toBe('A');
    expect(canRedoEdit(back)).toBe(true);
    const again = run([{ type: 'redo' }], back);
    expect(text(editorDoc(again).blocks[0])).toBe('B');
    const other = run([setText('C')], back);
    expect(canRedoEdit(other)).toBe(false);
    expect(run([{ type: 'undo' }, { type: 'undo' }, { type: 'undo' }], other).history.cursor).toBe(0);
  });

  it('leave the selection and the tab as they are', () => {
    const state = run([setText('A'), { type: 'select', uid: 'c' }, { type: 'showTab', tab: 'page' }]);
    expect(run([{ type: 'undo' }], state)).toMatchObject({ selected: 'c', tab: 'page' });
  });

  it('cover the page settings', () => {
    const state = run([{ type: 'editPage', patch: { description: 'Doces' } }]);
    expect(editorDoc(state).fields.description).toBe('Doces');
    expect(state.pageVersion).toBe(1);
    const undone = run([{ type: 'undo' }], state);
    expect(editorDoc(undone).fields.description).toBe('');
    expect(undone.pageVersion).toBe(2);
  });

  it('after a save, move the page on again: the autosave then saves the page as undone', () => {
    // The page autosave saves whenever pageVersion differs from the version it last saved.
    const edited = run([setText('A')]);
    const savedVersion = edited.pageVersion;
    const undone = run([{ type: 'undo' }], edited);
    expect(undone.pageVersion).not.toBe(savedVersion);
    expect(text(editorDoc(undone).blocks[0])).toBe('a');
    const redone = run([{ type: 'redo' }], undone);
    expect(redone.pageVersion).toBe(undone.pageVersion + 1);
    // Undo and redo with nothing to step over change nothing.
    expect(run([{ type: 'redo' }], redone)).toBe(redone);
  });
});

describe('shared sections', () => {
  it("edits the section, not the page: the sections' version moves and the section is to be saved", () => {
    const start = startEditor(doc());
    const state = run([setBrand('Forno')], start);
    expect(editorDoc(state).blocks).toBe(editorDoc(start).blocks);
    expect(state).toMatchObject({ pageVersion: 0, sectionsVersion: 1 });
    expect(unsavedSections(state)).toEqual([
      { section: 'header', block: { ...header, vars: [{ name: 'text', type: 'text', value: 'Forno' }] } },
    ]);
  });

  it('undoes and redoes a section edit not saved yet: nothing to save after the undo', () => {
    const undone = run([setBrand('Forno'), { type: 'undo' }]);
    expect(text(editorDoc(undone).sections.header)).toBe('Padaria');
    expect(undone.sectionsVersion).toBe(2);
    expect(unsavedSections(undone)).toEqual([]);
    const redone = run([{ type: 'redo' }], undone);
    expect(text(editorDoc(redone).sections.header)).toBe('Forno');
    expect(unsavedSections(redone).map(({ block: b }) => text(b))).toEqual(['Forno']);
  });

  it('undoes a saved section edit: the section as it was is saved again, and redo saves the edit again', () => {
    const edited = run([setBrand('Forno')]);
    const saved = run(
      [{ type: 'sectionSaved', section: 'header', block: editorDoc(edited).sections.header! }],
      edited,
    );
    expect(unsavedSections(saved)).toEqual([]);
    expect(saved.sectionsVersion).toBe(edited.sectionsVersion);

    const undone = run([{ type: 'undo' }], saved);
    expect(undone.sectionsVersion).toBe(saved.sectionsVersion + 1);
    expect(unsavedSections(undone)).toEqual([{ section: 'header', block: header }]);

    const savedBack = run([{ type: 'sectionSaved', section: 'header', block: header }], undone);
    expect(unsavedSections(savedBack)).toEqual([]);
    const redone = run([{ type: 'redo' }], savedBack);
    expect(unsavedSections(redone).map(({ block: b }) => text(b))).toEqual(['Forno']);
  });

  it('interleaves page and section edits in one history', () => {
    const state = run([setText('A'), setBrand('Forno'), setText('B')]);
    const once = run([{ type: 'undo' }], state);
    expect(text(editorDoc(once).blocks[0])).toBe('A');
    expect(text(editorDoc(once).sections.header)).toBe('Forno');
    const twice = run([{ type: 'undo' }], once);
    expect(text(editorDoc(twice).blocks[0])).toBe('A');
    expect(text(editorDoc(twice).sections.header)).toBe('Padaria');
    expect(twice.pageVersion).toBe(once.pageVersion);
  });

  it('ignores an edit of a section the project does not have', () => {
    const start = startEditor(doc({ sections: {} }));
    expect(editorReducer(start, setBrand('Forno'))).toBe(start);
    expect(editorReducer(start, { type: 'unbind', section: 'header', uid: 'h' })).toBe(start);
  });

  it('unbinds a section on this page: a page copy and the opt-out in one command, undone together', () => {
    const state = run([
      { type: 'select', uid: 'global-header' },
      { type: 'unbind', section: 'header', uid: 'h' },
    ]);
    expect(uids(state)).toEqual(['h', 'a', 'b', 'c']);
    expect(editorDoc(state).blocks[0]).toEqual({ ...header, uid: 'h' });
    expect(editorDoc(state).fields.meta).toEqual({ hideHeader: true });
    expect(state.selected).toBe('h');
    expect(unsavedSections(state)).toEqual([]);
    const undone = run([{ type: 'undo' }], state);
    expect(uids(undone)).toEqual(['a', 'b', 'c']);
    expect(editorDoc(undone).fields.meta).toEqual({});
  });

  it("binds a block as the server answered: undo gives the page its block back, never the server's section", () => {
    const footer = { ...block('c'), uid: 'global-footer' };
    const start = run([{ type: 'select', uid: 'c' }, setBrand('Forno')]);
    const bound = run(
      [{ type: 'bind', section: 'footer', blocks: [block('a'), block('b')], block: footer }],
      start,
    );
    expect(uids(bound)).toEqual(['a', 'b']);
    expect(editorDoc(bound).sections.footer).toEqual(footer);
    expect(bound.selected).toBe('global-footer');
    expect(bound.sectionsVersion).toBe(start.sectionsVersion);
    // The header's edit is still to be saved; the footer is the server's already.
    expect(unsavedSections(bound).map(({ section }) => section)).toEqual(['header']);

    const undone = run([{ type: 'undo' }], bound);
    expect(uids(undone)).toEqual(['a', 'b', 'c']);
    expect(editorDoc(undone).sections.footer).toEqual(footer);
    const first = run([{ type: 'undo' }], undone);
    expect(editorDoc(first).sections).toEqual({ header, footer });
    expect(unsavedSections(first)).toEqual([]);
  });
});
