// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { EditorView } from 'codemirror';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts, getToasts } from '@/testing/toasts';
import type { BlockLibrary, PageBlock } from '@/features/pages/types';
import { mockApi, renderRoutes } from '@/testing/render-route';
import '@/lib/i18n';
import SourceCodeModal, { type AppliedCode } from './SourceCodeModal';

const toastMessages = () => getToasts().map((toast) => toast.message);

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
      blocks: [
        {
          id: 11,
          uid: 'h/1',
          name: 'Hero dividido',
          image: null,
          keywords: '',
          category_id: 2,
          order: 1,
          template: '',
          css: '',
          js: '',
        },
      ],
    },
  ],
  my_blocks: [{ id: 5, name: 'Meu hero', template: '', css: '', js: '' }],
  business_blocks: [
    {
      id: 21,
      name: 'Capa da agência',
      image: '',
      keywords: '',
      template: '',
      css: '',
      js: '',
      order: 1,
      updated_at: '',
    },
  ],
};

function open(canSaveToLibrary = false, canSaveToBusiness = false, from: PageBlock = block) {
  const applied: AppliedCode[] = [];
  const onClose = vi.fn();
  renderRoutes(
    [
      {
        path: '/',
        element: (
          <SourceCodeModal
            block={from}
            library={library}
            canSaveToLibrary={canSaveToLibrary}
            canSaveToBusiness={canSaveToBusiness}
            onApply={(code) => applied.push(code)}
            onClose={onClose}
          />
        ),
      },
    ],
    '/',
  );
  return { applied, onClose };
}

const toasts = () => getToasts().map((toast) => `${toast.kind}:${toast.message}`);

/** Replaces the text of one of the modal's CodeMirror editors, as typing would. */
function setCode(testId: string, text: string) {
  const content = screen.getByTestId(testId).querySelector('.cm-content') as HTMLElement;
  const view = EditorView.findFromDOM(content);
  if (!view) throw new Error(`no editor in ${testId}`);
  act(() => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }));
}

const codeOf = (testId: string) =>
  EditorView.findFromDOM(
    screen.getByTestId(testId).querySelector('.cm-content') as HTMLElement,
  )?.state.doc.toString();

// jsdom has no layout: CodeMirror measures text ranges, which jsdom's Range lacks.
Range.prototype.getClientRects = function getClientRects() {
  return [] as unknown as DOMRectList;
};
Range.prototype.getBoundingClientRect = function getBoundingClientRect() {
  return new DOMRect(0, 0, 0, 0);
};

beforeEach(() => {
  clearToasts();
});

describe('source-code modal', () => {
  it('shows the template with its definitions back in x-vars, and applies edited code', () => {
    const { applied, onClose } = open();
    expect(codeOf('source-html')).toBe(
      `<section x-vars='[{"name":"title","type":"text","value":"Olá"}]'><h1>{{ title }}</h1></section>`,
    );
    expect(codeOf('source-css')).toBe('h1{}');
    setCode('source-html', `<div x-vars='[{"name":"n","type":"number","value":2}]'>{{ n }}</div>`);
    setCode('source-js', 'console.log(1)');
    fireEvent.click(screen.getByTestId('source-apply'));
    expect(applied).toEqual([
      {
        template: '<div>{{ n }}</div>',
        css: 'h1{}',
        js: 'console.log(1)',
        vars: [{ name: 'n', type: 'number', value: 2 }],
      },
    ]);
    expect(onClose).toHaveBeenCalled();
  });

  it("toasts 'Erro no x-vars: ' and the reason when the definitions can't be read", async () => {
    const { applied, onClose } = open();
    setCode('source-html', `<div x-vars='[{"name":"n","type":"nope"}]'></div>`);
    fireEvent.click(screen.getByTestId('source-apply'));
    await waitFor(() => expect(toastMessages()).toContain('Erro no x-vars: x-vars[0]: unknown type "nope"'));
    expect(applied).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();
  });

  it("saves in My Blocks as new or over a chosen one; the name is required; 'Salvo!'", async () => {
    const calls = mockApi({
      'POST /api/newMyBlock': (call) => ({ status: 201, json: { id: 8, ...(call.body as object) } }),
      'GET /api/blocks': () => ({ json: library }),
    });
    open();
    fireEvent.change(screen.getByTestId('my-block-name'), { target: { value: ' ' } });
    fireEvent.click(screen.getByTestId('my-block-save'));
    await waitFor(() => expect(toastMessages()).toContain('O nome do bloco é obrigatório'));
    expect(calls).toHaveLength(0);

    fireEvent.change(screen.getByTestId('my-block-name'), { target: { value: 'Meu hero novo' } });
    fireEvent.click(screen.getByTestId('my-block-save'));
    await waitFor(() => expect(toastMessages()).toContain('Salvo!'));
    expect(calls[0]).toEqual({
      method: 'POST',
      url: '/api/newMyBlock',
      body: {
        name: 'Meu hero novo',
        css: 'h1{}',
        js: '',
        template: `<section x-vars='[{"name":"title","type":"text","value":"Olá"}]'><h1>{{ title }}</h1></section>`,
      },
    });

    fireEvent.change(screen.getByTestId('my-block-target'), { target: { value: '5' } });
    fireEvent.click(screen.getByTestId('my-block-save'));
    await waitFor(() => expect(calls.filter((call) => call.url === '/api/newMyBlock')).toHaveLength(2));
    expect(calls.filter((call) => call.url === '/api/newMyBlock')[1]?.body).toMatchObject({
      id: 5,
      name: 'Meu hero novo',
    });
  });

  it('offers the global library only to platform admins, and the business library only to business admins', () => {
    open(false, false);
    expect(screen.queryByTestId('source-library')).toBeNull();
    expect(screen.queryByTestId('source-business')).toBeNull();
    cleanup();
    // A business admin saves to their business's library, never to the global one.
    open(false, true);
    expect(screen.queryByTestId('source-library')).toBeNull();
    expect(screen.getByTestId('source-business')).toBeTruthy();
  });

  it('saves to the business library as new or over one of its blocks, refusing a name it already has', async () => {
    const calls = mockApi({
      'POST /api/business/blocks': (call) => ({
        status: 201,
        json: { ...library.business_blocks[0], id: 22, ...(call.body as object) },
      }),
      'POST /api/business/blocks/21': (call) => ({
        json: { ...library.business_blocks[0], ...(call.body as object) },
      }),
      'POST /api/business/blocks/22': (call) => ({
        json: { ...library.business_blocks[0], id: 22, ...(call.body as object) },
      }),
      'GET /api/blocks': () => ({ json: library }),
      'GET /api/business/blocks': () => ({ json: library.business_blocks }),
    });
    open(false, true);
    const section = within(screen.getByTestId('source-business'));
    fireEvent.change(section.getByTestId('biz-block-name'), { target: { value: ' ' } });
    fireEvent.click(section.getByTestId('biz-block-save'));
    await waitFor(() => expect(toasts()).toEqual(['error:O nome do bloco é obrigatório']));
    fireEvent.change(section.getByTestId('biz-block-name'), { target: { value: 'CAPA da agência ' } });
    fireEvent.click(section.getByTestId('biz-block-save'));
    await waitFor(() => expect(toasts()).toContain('error:Já existe um bloco com esse nome'));
    expect(calls).toHaveLength(0);

    fireEvent.change(section.getByTestId('biz-block-name'), { target: { value: 'Hero da agência' } });
    fireEvent.click(section.getByTestId('biz-block-save'));
    await waitFor(() => expect(toasts()).toContain('success:"Hero da agência" salvo nos blocos da empresa.'));
    expect(calls[0]).toEqual({
      method: 'POST',
      url: '/api/business/blocks',
      body: {
        name: 'Hero da agência',
        css: 'h1{}',
        js: '',
        template: `<section x-vars='[{"name":"title","type":"text","value":"Olá"}]'><h1>{{ title }}</h1></section>`,
      },
    });
    // Saving again overwrites the block just made rather than making another.
    fireEvent.click(section.getByTestId('biz-block-save'));
    await waitFor(() => expect(calls.some((call) => call.url === '/api/business/blocks/22')).toBe(true));

    fireEvent.change(section.getByTestId('biz-block-target'), { target: { value: '21' } });
    fireEvent.change(section.getByTestId('biz-block-name'), { target: { value: 'Capa da agência' } });
    fireEvent.click(section.getByTestId('biz-block-save'));
    await waitFor(() => expect(calls.some((call) => call.url === '/api/business/blocks/21')).toBe(true));
    expect(calls.find((call) => call.url === '/api/business/blocks/21')?.body).toMatchObject({
      name: 'Capa da agência',
      css: 'h1{}',
    });
  });

  it("shows the server's refusal of a business save", async () => {
    mockApi({
      'POST /api/business/blocks': () => ({
        status: 409,
        json: {
          error: 'library_full',
          message: "The business's block library is full (200 blocks at most); delete one first",
          params: { max: 200 },
        },
      }),
    });
    open(false, true);
    fireEvent.click(within(screen.getByTestId('source-business')).getByTestId('biz-block-save'));
    await waitFor(() =>
      expect(toasts()).toEqual([
        'error:A biblioteca de blocos da empresa está cheia (no máximo 200 blocos); exclua um antes.',
      ]),
    );
  });

  it('overwrites by default the business block a page block came from, while the library has it', () => {
    open(false, true, { ...block, block_id: null, business_block_id: 21 });
    expect(screen.getByTestId<HTMLSelectElement>('biz-block-target').value).toBe('21');
    cleanup();
    open(false, true, { ...block, block_id: null, business_block_id: 99 });
    expect(screen.getByTestId<HTMLSelectElement>('biz-block-target').value).toBe('');
  });

  it('refuses an existing library name ignoring case, then saves a new block to the library', async () => {
    const calls = mockApi({
      'POST /api/newBlock': (call) => ({ status: 201, json: { id: 30, ...(call.body as object) } }),
      'GET /api/blocks': () => ({ json: library }),
    });
    open(true);
    const section = within(screen.getByTestId('source-library'));
    fireEvent.change(section.getByTestId('lib-block-name'), { target: { value: '' } });
    fireEvent.click(section.getByTestId('lib-block-save'));
    await waitFor(() => expect(toastMessages()).toContain('O nome do bloco é obrigatório'));
    fireEvent.change(section.getByTestId('lib-block-name'), { target: { value: 'hero DIVIDIDO ' } });
    fireEvent.click(section.getByTestId('lib-block-save'));
    await waitFor(() => expect(toastMessages()).toContain('Já existe um bloco com esse nome'));
    expect(calls).toHaveLength(0);

    // Overwriting that very block keeps its name.
    fireEvent.change(section.getByTestId('lib-block-target'), { target: { value: '11' } });
    fireEvent.click(section.getByTestId('lib-block-save'));
    await waitFor(() => expect(toastMessages()).toContain('Salvo!'));
    expect(calls[0]?.body).toMatchObject({
      id: 11,
      name: 'hero DIVIDIDO',
      category_id: 2,
      image: '',
      css: 'h1{}',
    });
  });
});
