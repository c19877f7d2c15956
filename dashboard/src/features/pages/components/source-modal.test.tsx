// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { EditorView } from 'codemirror';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { BlockLibrary, PageBlock } from '../types';
import { mockApi, renderRoutes } from '../../../testing/render-route';
import '../../../lib/i18n';
import SourceCodeModal, { type AppliedCode } from './SourceCodeModal';

const block: PageBlock = {
  uid: 'b-1',
  block_id: 11,
  myblock_id: null,
  name: 'Hero',
  template: '<section><h1>{{ title }}</h1></section>',
  css: 'h1{}',
  js: '',
  vars: [{ name: 'title', type: 'text', value: 'Olá' }],
};

const library: BlockLibrary = {
  categories: [
    {
      id: 2,
      key: null,
      name: 'Heroes',
      icon: '',
      order: 1,
      blocks: [{ id: 11, uid: 'h/1', name: 'Hero dividido', image: null, keywords: '', category_id: 2, order: 1, template: '', css: '', js: '' }],
    },
  ],
  my_blocks: [{ id: 5, name: 'Meu hero', template: '', css: '', js: '' }],
};

function open(canSaveToLibrary = false) {
  const applied: AppliedCode[] = [];
  const onClose = vi.fn();
  renderRoutes(
    [{ path: '/', element: <SourceCodeModal block={block} library={library} canSaveToLibrary={canSaveToLibrary} onApply={(code) => applied.push(code)} onClose={onClose} /> }],
    '/',
  );
  return { applied, onClose };
}

/** Replaces the text of one of the modal's CodeMirror editors, as typing would. */
function setCode(testId: string, text: string) {
  const content = screen.getByTestId(testId).querySelector('.cm-content') as HTMLElement;
  const view = EditorView.findFromDOM(content);
  if (!view) throw new Error(`no editor in ${testId}`);
  act(() => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }));
}

const codeOf = (testId: string) => EditorView.findFromDOM(screen.getByTestId(testId).querySelector('.cm-content') as HTMLElement)?.state.doc.toString();

// jsdom has no layout: CodeMirror measures text ranges, which jsdom's Range lacks.
Range.prototype.getClientRects = function getClientRects() {
  return [] as unknown as DOMRectList;
};
Range.prototype.getBoundingClientRect = function getBoundingClientRect() {
  return new DOMRect(0, 0, 0, 0);
};

beforeEach(() => {
  vi.spyOn(window, 'alert').mockImplementation(() => undefined);
});

describe('source-code modal', () => {
  it('shows the template with its definitions back in x-vars, and applies edited code', () => {
    const { applied, onClose } = open();
    expect(codeOf('source-html')).toBe(`<section x-vars='[{"name":"title","type":"text","value":"Olá"}]'><h1>{{ title }}</h1></section>`);
    expect(codeOf('source-css')).toBe('h1{}');
    setCode('source-html', `<div x-vars='[{"name":"n","type":"number","value":2}]'>{{ n }}</div>`);
    setCode('source-js', 'console.log(1)');
    fireEvent.click(screen.getByTestId('source-apply'));
    expect(applied).toEqual([{ template: '<div>{{ n }}</div>', css: 'h1{}', js: 'console.log(1)', vars: [{ name: 'n', type: 'number', value: 2 }] }]);
    expect(onClose).toHaveBeenCalled();
  });

  it("alerts 'x-vars error: ' and the reason when the definitions can't be read", () => {
    const { applied, onClose } = open();
    setCode('source-html', `<div x-vars='[{"name":"n","type":"nope"}]'></div>`);
    fireEvent.click(screen.getByTestId('source-apply'));
    expect(window.alert).toHaveBeenCalledWith('x-vars error: x-vars[0]: unknown type "nope"');
    expect(applied).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();
  });

  it("saves in My Blocks as new or over a chosen one; the name is required; 'saved!'", async () => {
    const calls = mockApi({ 'POST /api/newMyBlock': (call) => ({ status: 201, json: { id: 8, ...(call.body as object) } }), 'GET /api/blocks': () => ({ json: library }) });
    open();
    fireEvent.change(screen.getByTestId('my-block-name'), { target: { value: ' ' } });
    fireEvent.click(screen.getByTestId('my-block-save'));
    expect(window.alert).toHaveBeenCalledWith('Block Name is required');
    expect(calls).toHaveLength(0);

    fireEvent.change(screen.getByTestId('my-block-name'), { target: { value: 'Meu hero novo' } });
    fireEvent.click(screen.getByTestId('my-block-save'));
    await waitFor(() => expect(window.alert).toHaveBeenCalledWith('saved!'));
    expect(calls[0]).toEqual({
      method: 'POST',
      url: '/api/newMyBlock',
      body: { name: 'Meu hero novo', css: 'h1{}', js: '', template: `<section x-vars='[{"name":"title","type":"text","value":"Olá"}]'><h1>{{ title }}</h1></section>` },
    });

    fireEvent.change(screen.getByTestId('my-block-target'), { target: { value: '5' } });
    fireEvent.click(screen.getByTestId('my-block-save'));
    await waitFor(() => expect(calls.filter((call) => call.url === '/api/newMyBlock')).toHaveLength(2));
    expect(calls.filter((call) => call.url === '/api/newMyBlock')[1]?.body).toMatchObject({ id: 5, name: 'Meu hero novo' });
  });

  it('offers the global library only to admins', () => {
    open(false);
    expect(screen.queryByTestId('source-library')).toBeNull();
  });

  it("refuses an existing library name ignoring case, then saves a new block to the library", async () => {
    const calls = mockApi({ 'POST /api/newBlock': (call) => ({ status: 201, json: { id: 30, ...(call.body as object) } }), 'GET /api/blocks': () => ({ json: library }) });
    open(true);
    const section = within(screen.getByTestId('source-library'));
    fireEvent.change(section.getByTestId('lib-block-name'), { target: { value: '' } });
    fireEvent.click(section.getByTestId('lib-block-save'));
    expect(window.alert).toHaveBeenLastCalledWith('Block Name is required');
    fireEvent.change(section.getByTestId('lib-block-name'), { target: { value: 'hero DIVIDIDO ' } });
    fireEvent.click(section.getByTestId('lib-block-save'));
    expect(window.alert).toHaveBeenLastCalledWith('Block Name already exists');
    expect(calls).toHaveLength(0);

    // Overwriting that very block keeps its name.
    fireEvent.change(section.getByTestId('lib-block-target'), { target: { value: '11' } });
    fireEvent.click(section.getByTestId('lib-block-save'));
    await waitFor(() => expect(window.alert).toHaveBeenLastCalledWith('saved!'));
    expect(calls[0]?.body).toMatchObject({ id: 11, name: 'hero DIVIDIDO', category_id: 2, image: '', css: 'h1{}' });
  });
});
