// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PageEditorPage } from '@/app/PageEditorPage';
import { paths } from '@/app/paths';
import type { Page, User } from '@/lib/types';
import { projectFixture } from '@/testing/fixtures';
import { acceptConfirm, cancelConfirm, confirmText } from '@/testing/dialogs';
import { getToasts } from '@/testing/toasts';
import { mockApi, renderRoutes, type ApiCall, type Handler } from '@/testing/render-route';
import type { Sections } from '@/features/pages/lib/shared-sections';
import type { BlockLibrary, PageBlock } from '@/features/pages/types';

const toastMessages = () => getToasts().map((toast) => toast.message);

const routes = [
  { path: paths.page.pattern, element: <PageEditorPage /> },
  { path: paths.home.pattern, element: <p data-testid="home">home</p> },
  { path: paths.project.pattern, element: <p data-testid="project">project</p> },
];

const hero: PageBlock = {
  uid: 'b-hero',
  block_id: 1,
  name: 'Hero',
  template: '<section><h1>{{ title }}</h1></section>',
  css: 'h1{color:red}',
  js: '',
  vars: [{ name: 'title', type: 'text', label: 'Título', value: 'Olá' }],
};

function page(overrides: Partial<Page> = {}): Page {
  return {
    id: 3,
    project_id: 7,
    name: 'Início',
    slug: '/',
    description: '',
    image: null,
    meta: {},
    output: '',
    blocks: [hero],
    table_id: null,
    is_home: true,
    created_at: '2026-01-01T10:00:00Z',
    updated_at: '2026-01-01T10:00:00Z',
    ...overrides,
  };
}

const user = (overrides: Partial<User> = {}): User => ({
  id: 1,
  name: 'Ana',
  email: 'ana@example.com',
  language: 'pt-BR',
  currency: 'BRL',
  business_id: null,
  is_admin: false,
  is_business_admin: false,
  permissions: { all_projects: true },
  created_at: '2026-01-01T00:00:00Z',
  ...overrides,
});

const library: BlockLibrary = {
  categories: [
    {
      id: 2,
      key: null,
      name: 'Heroes',
      icon: '<svg></svg>',
      order: 1,
      blocks: [
        {
          id: 11,
          uid: 'heroes/split',
          name: 'Hero dividido',
          image: null,
          keywords: 'banner, topo',
          category_id: 2,
          order: 1,
          template: `<section x-vars='[{"name":"heading","type":"text","label":"Título","value":"Novo"},{"name":"bg","type":"color","value":"#ff0000"}]'>{{ heading }}</section>`,
          css: '',
          js: '',
        },
      ],
    },
    {
      id: 1,
      key: 'elements',
      name: 'Elements',
      icon: '',
      order: 9,
      blocks: [
        {
          id: 12,
          uid: 'elements/button',
          name: 'Botão',
          image: null,
          keywords: 'button, link',
          category_id: 1,
          order: 1,
          template: '<a>b</a>',
          css: '',
          js: '',
        },
      ],
    },
  ],
  my_blocks: [{ id: 5, name: 'Meu rodapé', template: '<footer>f</footer>', css: '', js: '' }],
  business_blocks: [
    {
      id: 21,
      name: 'Capa da agência',
      image: '',
      keywords: 'topo, marca',
      template: `<header x-vars='[{"name":"slogan","type":"text","value":"Nós"}]'>{{ slogan }}</header>`,
      css: '',
      js: '',
      order: 1,
      updated_at: '2026-01-01T00:00:00Z',
    },
  ],
};

/** A member of business 10, its administrator when `admin`. */
const memberOf = (admin: boolean) => ({ user: user({ business_id: 10, is_business_admin: admin }) });

/** The render API: each block's html shows its uid and its first value. */
const render: Handler = (call) => {
  const body = call.body as { blocks: PageBlock[] };
  return {
    json: {
      head: '<style>.head{}</style>',
      blocks: body.blocks.map((block) => ({
        uid: block.uid,
        html: `<div>${block.uid}:${typeof block.vars[0]?.value === 'string' ? block.vars[0].value : ''}</div>`,
      })),
    },
  };
};

type Options = { page?: Page; user?: User; sections?: Sections };

function api(extra: Record<string, Handler> = {}, options: Options = {}) {
  return mockApi({
    'GET /api/project/7/sections': () => ({ json: options.sections ?? {} }),
    'GET /api/project/7/page/3': () => ({ json: options.page ?? page() }),
    'GET /api/projects/7': () => ({
      json: projectFixture(7, {
        pages: [
          { id: 3, name: 'Início', slug: '/', table_id: null, is_home: true, updated_at: '' },
          { id: 4, name: 'Contato', slug: 'contato', table_id: null, is_home: false, updated_at: '' },
        ],
        tables: [{ id: 9, name: 'Produtos', slug: 'produtos' }],
      }),
    }),
    'GET /api/blocks': () => ({ json: library }),
    'GET /api/user': () => ({ json: options.user ?? user() }),
    'POST /api/project/7/render': render,
    'POST /api/page/3': (call) => ({ json: { ...page(), ...(call.body as object) } }),
    ...extra,
  });
}

/** Collection 9, Produtos: a price field and one post, Bolo. */
const produtos: Handler = () => ({
  json: {
    table: { id: 9, name: 'Produtos', slug: 'produtos' },
    fields: [{ id: 1, name: 'Preço', slug: 'preco', type: 'currency' }],
    posts: [{ id: 1, name: 'Bolo', slug: 'bolo', created_at: '' }],
  },
});

const renders = (calls: ApiCall[]) => calls.filter((call) => call.url === '/api/project/7/render');
const iframe = () => screen.getByTestId<HTMLIFrameElement>('canvas-iframe');

/** The canvas announces itself, as its runtime does once loaded. */
function canvasSays(data: unknown, source: Window | null = iframe().contentWindow) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, source }));
  });
}

async function openEditor(extra: Record<string, Handler> = {}, options: Options = {}) {
  const calls = api(extra, options);
  const router = renderRoutes(routes, '/project/7/3');
  await screen.findByTestId('canvas-iframe');
  const post = vi.spyOn(iframe().contentWindow as Window, 'postMessage');
  canvasSays({ vitrine: 1, type: 'ready' });
  return { calls, router, post };
}

beforeEach(() => {
  window.localStorage.clear();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('page editor', () => {
  it('shows the page in a sandboxed canvas built from the render API', async () => {
    const { calls } = await openEditor();
    const frame = iframe();
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts');
    const doc = frame.getAttribute('srcdoc') ?? '';
    expect(doc).toContain('<style>.head{}</style>');
    expect(doc).toContain('<style>h1{color:red}</style><div>b-hero:Olá</div>');
    expect(renders(calls)[0]?.body).toEqual({ page_id: 3, blocks: [hero] });
    expect(screen.getByTestId('save-state').textContent).toMatch(/^Salvo \d\d:\d\d:\d\d$/);
    expect(screen.getByTestId<HTMLButtonElement>('undo').disabled).toBe(true);
    expect(screen.getByTestId<HTMLButtonElement>('redo').disabled).toBe(true);
    expect(screen.getByTestId<HTMLButtonElement>('preview-button').disabled).toBe(false);
  });

  it('selects a block clicked in the canvas, and ignores messages from other windows or versions', async () => {
    await openEditor();
    canvasSays({ vitrine: 1, type: 'select-block', uid: 'b-hero' }, window);
    canvasSays({ vitrine: 2, type: 'select-block', uid: 'b-hero' });
    expect(screen.getByTestId('no-block')).toBeTruthy();
    canvasSays({ vitrine: 1, type: 'select-block', uid: 'b-hero' });
    expect(screen.getByTestId('block-name').textContent).toBe('Hero');
    expect(screen.getByTestId('var-title')).toBeTruthy();
  });

  it('re-renders only the edited block and replaces it in the canvas', async () => {
    const { calls, post } = await openEditor();
    canvasSays({ vitrine: 1, type: 'select-block', uid: 'b-hero' });
    const before = renders(calls).length;
    fireEvent.change(within(screen.getByTestId('var-title')).getByRole('textbox'), {
      target: { value: 'Olá mundo' },
    });
    await waitFor(() => expect(renders(calls).length).toBe(before + 1));
    const sent = renders(calls)[before]?.body as { blocks: PageBlock[] };
    expect(sent.blocks.map((block) => block.vars[0]?.value)).toEqual(['Olá mundo']);
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(
        {
          vitrine: 1,
          type: 'replace-block',
          block: { uid: 'b-hero', html: '<div>b-hero:Olá mundo</div>', css: 'h1{color:red}', js: '' },
        },
        '*',
      ),
    );
    expect(screen.getByTestId('save-state').textContent).toBe('Salvar alterações');
    expect(screen.getByTestId<HTMLButtonElement>('preview-button').disabled).toBe(true);
    expect(screen.getByTestId<HTMLButtonElement>('deploy-button').disabled).toBe(true);
    expect(screen.getByTestId<HTMLButtonElement>('undo').disabled).toBe(false);
  });

  it('undoes and redoes edits', async () => {
    await openEditor();
    canvasSays({ vitrine: 1, type: 'select-block', uid: 'b-hero' });
    const input = () => within(screen.getByTestId('var-title')).getByRole<HTMLInputElement>('textbox');
    fireEvent.change(input(), { target: { value: 'A' } });
    fireEvent.change(input(), { target: { value: 'B' } });
    fireEvent.click(screen.getByTestId('undo'));
    expect(input().value).toBe('A');
    expect(screen.getByTestId<HTMLButtonElement>('redo').disabled).toBe(false);
    fireEvent.click(screen.getByTestId('undo'));
    expect(input().value).toBe('Olá');
    expect(screen.getByTestId<HTMLButtonElement>('undo').disabled).toBe(true);
    fireEvent.click(screen.getByTestId('redo'));
    expect(input().value).toBe('A');
    fireEvent.keyDown(input(), { key: 'z', ctrlKey: true });
    expect(input().value).toBe('A');
    fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true });
    expect(input().value).toBe('Olá');
    fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true, shiftKey: true });
    expect(input().value).toBe('A');
  });

  it('inserts a library block at the end, with its x-vars moved into vars, and renders the page again', async () => {
    const { calls, post } = await openEditor();
    fireEvent.click(within(screen.getByTestId('category')).getByTestId('library-category'));
    fireEvent.click(within(screen.getByTestId('category')).getByTestId('library-add'));
    await waitFor(() =>
      expect(post.mock.calls.some(([data]) => (data as { type: string }).type === 'render')).toBe(true),
    );
    const inserted = (renders(calls).at(-1)?.body as { blocks: PageBlock[] }).blocks[0];
    expect(inserted).toMatchObject({
      block_id: 11,
      myblock_id: null,
      name: 'Hero dividido',
      template: '<section>{{ heading }}</section>',
      vars: [
        { name: 'heading', type: 'text', label: 'Título', value: 'Novo' },
        { name: 'bg', type: 'color', value: '#ff0000' },
      ],
    });
    expect(inserted?.uid).toMatch(/^b-[0-9a-f]{8}$/);
    const [rendered] =
      post.mock.calls.filter(([data]) => (data as { type: string }).type === 'render').at(-1) ?? [];
    expect((rendered as { blocks: { uid: string }[] }).blocks.map((block) => block.uid)).toEqual([
      'b-hero',
      inserted?.uid,
    ]);
    expect(screen.getByTestId('block-name').textContent).toBe('Hero dividido');
    expect(screen.getByTestId('var-bg')).toBeTruthy();
  });

  it('adds a block before the footer with none selected, then right after the selected one, and shows it', async () => {
    const footer: PageBlock = {
      uid: 'b-foot',
      block_id: null,
      myblock_id: 5,
      name: 'Meu rodapé',
      template: '<footer>f</footer>',
      css: '',
      js: '',
      vars: [],
    };
    const { calls, post } = await openEditor({}, { page: page({ blocks: [hero, footer] }) });
    const rendered = () =>
      (post.mock.calls.filter(([data]) => (data as { type: string }).type === 'render').at(-1)?.[0] as
        { blocks: { uid: string }[]; selected: string | null } | undefined) ?? { blocks: [], selected: null };
    const selects = () =>
      post.mock.calls
        .map(([data]) => data as { type: string; uid?: string })
        .filter((data) => data.type === 'select')
        .map((data) => data.uid);

    fireEvent.click(within(screen.getByTestId('category')).getByTestId('library-category'));
    fireEvent.click(within(screen.getByTestId('category')).getByTestId('library-add'));
    await waitFor(() => expect(rendered().blocks).toHaveLength(3));
    const added = (renders(calls).at(-1)?.body as { blocks: PageBlock[] }).blocks[0]?.uid;
    expect(rendered().blocks.map((block) => block.uid)).toEqual(['b-hero', added, 'b-foot']);
    // Selected: the Block tab shows it, and the canvas is told to select (and scroll to) it.
    expect(screen.getByTestId('block-name').textContent).toBe('Hero dividido');
    expect(rendered().selected).toBe(added);
    expect(selects().at(-1)).toBe(added);

    // Now with the new block selected, "Botão" lands right after it.
    const elements = within(screen.getByTestId('category-elements'));
    fireEvent.click(elements.getByTestId('library-category'));
    fireEvent.click(elements.getByTestId('library-add'));
    await waitFor(() => expect(rendered().blocks).toHaveLength(4));
    const button = (renders(calls).at(-1)?.body as { blocks: PageBlock[] }).blocks[0]?.uid;
    expect(rendered().blocks.map((block) => block.uid)).toEqual(['b-hero', added, button, 'b-foot']);
    expect(screen.getByTestId('block-name').textContent).toBe('Botão');
    expect(selects().at(-1)).toBe(button);
  });

  it('shows a blank page as a drop zone with suggested blocks, one click adding one', async () => {
    const { calls, post } = await openEditor({}, { page: page({ blocks: [] }) });
    const empty = await screen.findByTestId('canvas-empty');
    expect(empty.textContent).toContain('Esta página ainda não tem blocos');
    // The library's Heroes category gives a suggestion; Elements gives none.
    const starters = within(empty).getAllByTestId('starter-block');
    expect(starters.map((item) => item.getAttribute('data-block-id'))).toEqual(['11']);
    const add = within(empty).getByTestId('starter-add');
    expect(add.textContent).toBe('Adicionar Hero dividido');
    fireEvent.click(add);
    await waitFor(() =>
      expect(post.mock.calls.some(([data]) => (data as { type: string }).type === 'render')).toBe(true),
    );
    expect((renders(calls).at(-1)?.body as { blocks: PageBlock[] }).blocks[0]).toMatchObject({
      block_id: 11,
      name: 'Hero dividido',
    });
    expect(screen.queryByTestId('canvas-empty')).toBeNull();
    expect(screen.getByTestId('block-name').textContent).toBe('Hero dividido');
  });

  it('inserts a My Blocks entry and deletes one after confirming', async () => {
    const { calls } = await openEditor({ 'DELETE /api/block/5': () => ({ status: 204 }) });
    const mine = within(screen.getByTestId('category-my-blocks'));
    fireEvent.click(mine.getByTestId('library-category'));
    fireEvent.click(mine.getByTestId('library-add'));
    await waitFor(() =>
      expect((renders(calls).at(-1)?.body as { blocks: PageBlock[] }).blocks[0]).toMatchObject({
        myblock_id: 5,
        block_id: null,
        template: '<footer>f</footer>',
      }),
    );
    fireEvent.click(mine.getByTestId('my-block-delete'));
    expect(await confirmText()).toBe('Excluir "Meu rodapé" de Meus Blocos? Esta ação não pode ser desfeita.');
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await acceptConfirm();
    await waitFor(() =>
      expect(calls.some((call) => call.method === 'DELETE' && call.url === '/api/block/5')).toBe(true),
    );
  });

  it("shows the business's blocks beside My Blocks to its members, and inserts one with its origin", async () => {
    const { calls } = await openEditor({}, memberOf(false));
    const business = within(screen.getByTestId('category-business-blocks'));
    fireEvent.click(business.getByTestId('library-category'));
    // Members use the business's library; only its administrators delete from it.
    expect(business.queryByTestId('business-block-delete')).toBeNull();
    fireEvent.click(business.getByTestId('library-add'));
    await waitFor(() =>
      expect((renders(calls).at(-1)?.body as { blocks: PageBlock[] }).blocks[0]).toMatchObject({
        business_block_id: 21,
        block_id: null,
        myblock_id: null,
        template: '<header>{{ slogan }}</header>',
        vars: [{ name: 'slogan', type: 'text', value: 'Nós' }],
      }),
    );
  });

  it('shows no business library outside a business, nor finds its blocks in the search', async () => {
    await openEditor();
    expect(screen.queryByTestId('category-business-blocks')).toBeNull();
    fireEvent.change(screen.getByTestId('block-search'), { target: { value: 'marca' } });
    expect(screen.getByTestId('search-empty')).toBeTruthy();
  });

  it("lets the business's administrator delete a business block after confirming in a modal", async () => {
    const { calls } = await openEditor(
      { 'DELETE /api/business/blocks/21': () => ({ status: 204 }) },
      memberOf(true),
    );
    const business = within(screen.getByTestId('category-business-blocks'));
    fireEvent.click(business.getByTestId('library-category'));
    fireEvent.click(business.getByTestId('business-block-delete'));
    const modal = within(await screen.findByTestId('business-block-delete-modal'));
    expect(
      modal.getByText(
        'Excluir "Capa da agência" dos blocos da empresa? Ele sai da biblioteca de todos os membros; as páginas que já o usam não mudam.',
      ),
    ).toBeTruthy();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    fireEvent.click(modal.getByTestId('business-block-delete-confirm'));
    await waitFor(() =>
      expect(calls.some((call) => call.method === 'DELETE' && call.url === '/api/business/blocks/21')).toBe(
        true,
      ),
    );
    await waitFor(() => expect(screen.queryByTestId('business-block-delete-modal')).toBeNull());
    expect(screen.queryByTestId('confirm-dialog')).toBeNull();
  });

  it("finds the business's blocks in the search, before the global library's", async () => {
    await openEditor({}, memberOf(false));
    fireEvent.change(screen.getByTestId('block-search'), { target: { value: 'topo' } });
    const results = within(screen.getByTestId('search-results')).getAllByTestId('library-block');
    expect(
      results.map((item) => `${item.getAttribute('data-source')}:${item.getAttribute('data-block-id')}`),
    ).toEqual(['business:21', 'library:11']);
  });

  it('searches blocks from 2 characters, by name and keyword, with Elements and My Blocks apart', async () => {
    await openEditor();
    expect(screen.getByTestId('category-elements')).toBeTruthy();
    expect(screen.getByTestId('category-my-blocks')).toBeTruthy();
    const search = screen.getByTestId('block-search');
    fireEvent.change(search, { target: { value: 't' } });
    expect(screen.queryByTestId('search-results')).toBeNull();
    fireEvent.change(search, { target: { value: 'topo' } });
    const results = within(screen.getByTestId('search-results')).getAllByTestId('library-block');
    expect(results.map((item) => item.getAttribute('data-block-id'))).toEqual(['11']);
    fireEvent.change(search, { target: { value: 'BOT' } });
    expect(
      within(screen.getByTestId('search-results'))
        .getAllByTestId('library-block')
        .map((item) => item.getAttribute('data-block-id')),
    ).toEqual(['12']);
  });

  it('saves blocks and output with the save button, then shows the time', async () => {
    const { calls } = await openEditor();
    canvasSays({ vitrine: 1, type: 'select-block', uid: 'b-hero' });
    fireEvent.change(within(screen.getByTestId('var-title')).getByRole('textbox'), {
      target: { value: 'Novo' },
    });
    fireEvent.click(screen.getByTestId('save-state'));
    await waitFor(() => expect(calls.some((call) => call.url === '/api/page/3')).toBe(true));
    const saved = calls.find((call) => call.url === '/api/page/3')?.body as Record<string, unknown>;
    expect(saved.output).toBe('<div>b-hero:Novo</div>');
    expect((saved.blocks as PageBlock[])[0]?.vars[0]?.value).toBe('Novo');
    expect(saved).toMatchObject({ name: 'Início', slug: '/', description: '', image: null, meta: {} });
    await waitFor(() => expect(screen.getByTestId('save-state').getAttribute('data-state')).toBe('saved'));
    expect(screen.getByTestId<HTMLButtonElement>('deploy-button').disabled).toBe(false);
  });

  it('autosaves 5 s after the last edit', async () => {
    const { calls } = await openEditor();
    canvasSays({ vitrine: 1, type: 'select-block', uid: 'b-hero' });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const input = within(screen.getByTestId('var-title')).getByRole('textbox');
    fireEvent.change(input, { target: { value: 'X' } });
    await act(() => vi.advanceTimersByTimeAsync(3000));
    fireEvent.change(input, { target: { value: 'XY' } });
    await act(() => vi.advanceTimersByTimeAsync(4999));
    expect(calls.some((call) => call.url === '/api/page/3')).toBe(false);
    await act(() => vi.advanceTimersByTimeAsync(1));
    vi.useRealTimers();
    await waitFor(() => expect(calls.filter((call) => call.url === '/api/page/3')).toHaveLength(1));
    expect(
      (calls.find((call) => call.url === '/api/page/3')?.body as { blocks: PageBlock[] }).blocks[0]?.vars[0]
        ?.value,
    ).toBe('XY');
  });

  it("toasts 'Error' when a save fails and keeps the changes unsaved", async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await openEditor({
      'POST /api/page/3': () => ({ status: 500, json: { error: 'internal', message: 'boom' } }),
    });
    canvasSays({ vitrine: 1, type: 'select-block', uid: 'b-hero' });
    fireEvent.change(within(screen.getByTestId('var-title')).getByRole('textbox'), {
      target: { value: 'Novo' },
    });
    fireEvent.click(screen.getByTestId('save-state'));
    await waitFor(() => expect(toastMessages()).toContain('Erro'));
    expect(logged).toHaveBeenCalled();
    expect(screen.getByTestId('save-state').getAttribute('data-state')).toBe('dirty');
  });

  it('goes to / when the page cannot be loaded', async () => {
    api({
      'GET /api/project/7/page/3': () => ({
        status: 404,
        json: { error: 'not_found', message: 'Not found' },
      }),
    });
    const router = renderRoutes(routes, '/project/7/3');
    await screen.findByTestId('home');
    expect(router.state.location.pathname).toBe('/');
  });

  it("shows the server's message when the block library can't be loaded, after two retries", async () => {
    const calls = api({
      'GET /api/blocks': () => ({
        status: 503,
        json: {
          error: 'database_unavailable',
          message: 'The database is not answering right now; please try again in a moment',
        },
      }),
    });
    renderRoutes(routes, '/project/7/3');
    // A 503 is retried twice (1 s, then 2 s later) before the error shows.
    expect((await screen.findByRole('alert', {}, { timeout: 6000 })).textContent).toBe(
      'O banco de dados não está respondendo agora; tente de novo em instantes.',
    );
    expect(calls.filter((call) => call.url === '/api/blocks')).toHaveLength(3);
  }, 10_000);

  it('asks before leaving with unsaved changes', async () => {
    const { router } = await openEditor();
    canvasSays({ vitrine: 1, type: 'select-block', uid: 'b-hero' });
    fireEvent.change(within(screen.getByTestId('var-title')).getByRole('textbox'), {
      target: { value: 'Novo' },
    });
    fireEvent.click(screen.getByTestId('project-link'));
    expect(await confirmText()).toBe(
      'Há alterações não salvas. Sair mesmo assim? As alterações não salvas serão perdidas.',
    );
    await cancelConfirm();
    expect(router.state.location.pathname).toBe('/project/7/3');
    fireEvent.click(screen.getByTestId('project-link'));
    await acceptConfirm();
    await screen.findByTestId('project');
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(false);
  });

  it('blocks the browser unload while changes are unsaved', async () => {
    await openEditor();
    canvasSays({ vitrine: 1, type: 'select-block', uid: 'b-hero' });
    fireEvent.change(within(screen.getByTestId('var-title')).getByRole('textbox'), {
      target: { value: 'Novo' },
    });
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
  });

  it("removes a block after 'Remove block?', duplicates and moves blocks", async () => {
    await openEditor();
    canvasSays({ vitrine: 1, type: 'select-block', uid: 'b-hero' });
    fireEvent.click(screen.getByTestId('block-duplicate'));
    expect(screen.getByTestId('block-name').textContent).toBe('Hero');
    expect(screen.getByTestId<HTMLButtonElement>('block-up').disabled).toBe(false);
    fireEvent.click(screen.getByTestId('block-up'));
    expect(screen.getByTestId<HTMLButtonElement>('block-up').disabled).toBe(true);
    fireEvent.click(screen.getByTestId('block-remove'));
    expect(await confirmText()).toContain('Remover bloco?');
    await cancelConfirm();
    expect(screen.getByTestId('block-name')).toBeTruthy();
    fireEvent.click(screen.getByTestId('block-remove'));
    await acceptConfirm();
    fireEvent.click(screen.getByTestId('block-remove'));
    await acceptConfirm();
    expect(await screen.findByTestId('no-block')).toBeTruthy();
  });

  it('applies an upload that finishes late to the page as it is then', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const withImage: PageBlock = {
      ...hero,
      vars: [...hero.vars, { name: 'img', type: 'image', value: { src: '', alt: '' } }],
    };
    const { calls } = await openEditor(
      { 'POST /api/upload': async () => (await held, new Response('/files/a.png', { status: 200 })) },
      { page: page({ blocks: [withImage] }) },
    );
    canvasSays({ vitrine: 1, type: 'select-block', uid: 'b-hero' });
    fireEvent.change(screen.getByTestId('var-b-hero-img-upload-input'), {
      target: { files: [new File(['x'], 'a.png', { type: 'image/png' })] },
    });
    await waitFor(() => expect(calls.some((call) => call.url === '/api/upload')).toBe(true));
    fireEvent.change(within(screen.getByTestId('var-title')).getAllByRole('textbox')[0]!, {
      target: { value: 'Editado' },
    });
    release();
    await waitFor(() =>
      expect((renders(calls).at(-1)?.body as { blocks: PageBlock[] }).blocks[0]?.vars[1]?.value).toEqual({
        src: '/files/a.png',
        alt: '',
      }),
    );
    expect((renders(calls).at(-1)?.body as { blocks: PageBlock[] }).blocks[0]?.vars[0]?.value).toBe(
      'Editado',
    );
  });

  it('edits a text inline: only the field it chose, once, for the edit it started', async () => {
    const two: PageBlock = {
      ...hero,
      uid: 'b-two',
      vars: [
        { name: 'title', type: 'text', value: 'Outro' },
        { name: 'note', type: 'text', value: 'Nota' },
      ],
    };
    const { calls, post } = await openEditor({}, { page: page({ blocks: [hero, two] }) });
    const lastRendered = () => (renders(calls).at(-1)?.body as { blocks: PageBlock[] }).blocks;
    // Text that no field shows starts nothing.
    canvasSays({ vitrine: 1, type: 'edit-request', uid: 'b-hero', texts: ['Nada disso'], htmls: ['x'] });
    canvasSays({ vitrine: 1, type: 'edit-request', uid: 'b-none', texts: ['Olá'], htmls: ['Olá'] });
    expect(post.mock.calls.some(([data]) => (data as { type: string }).type === 'edit-start')).toBe(false);

    canvasSays({
      vitrine: 1,
      type: 'edit-request',
      uid: 'b-hero',
      texts: [' Olá ', 'Olá'],
      htmls: [' Olá ', '<h1> Olá </h1>'],
    });
    const start = post.mock.calls
      .map(([data]) => data as { type: string; token?: unknown })
      .find((data) => data.type === 'edit-start');
    expect(start).toMatchObject({ vitrine: 1, type: 'edit-start', uid: 'b-hero', depth: 0, rich: false });
    expect(typeof start?.token).toBe('string');
    const { token } = start as { token: string };
    const before = renders(calls).length;
    // Another token, or another window, changes nothing.
    canvasSays({ vitrine: 1, type: 'edit-commit', token: `${token}x`, value: 'Falso' });
    canvasSays({ vitrine: 1, type: 'edit-commit', token, value: 'Falso' }, window);
    // The commit names another block and field: they are not the canvas's to choose.
    canvasSays({ vitrine: 1, type: 'edit-commit', token, value: 'Oi\nmundo', uid: 'b-two', name: 'note' });
    await waitFor(() => expect(renders(calls).length).toBe(before + 1));
    expect(lastRendered()).toEqual([{ ...hero, vars: [{ ...hero.vars[0], value: 'Oi mundo' }] }]);
    // A replay of the same commit is ignored.
    canvasSays({ vitrine: 1, type: 'edit-commit', token, value: 'De novo' });
    fireEvent.click(screen.getByTestId('save-state'));
    await waitFor(() => expect(calls.some((call) => call.url === '/api/page/3')).toBe(true));
    const saved = (calls.find((call) => call.url === '/api/page/3')?.body as { blocks: PageBlock[] }).blocks;
    expect(saved.map((block) => block.vars.map((v) => v.value))).toEqual([['Oi mundo'], ['Outro', 'Nota']]);
    expect(renders(calls).length).toBe(before + 1);
  });

  it('combines effects on the selected block', async () => {
    const { calls } = await openEditor();
    canvasSays({ vitrine: 1, type: 'select-block', uid: 'b-hero' });
    fireEvent.click(screen.getByTestId('effect-zoom-in'));
    fireEvent.click(screen.getByTestId('effect-fade-in'));
    await waitFor(() =>
      expect((renders(calls).at(-1)?.body as { blocks: PageBlock[] }).blocks[0]?.effect).toBe(
        'fade-in zoom-in',
      ),
    );
  });

  it('fits the page to the window by default, and remembers a zoom preset and the mobile device', async () => {
    await openEditor();
    const zoom = screen.getByTestId<HTMLSelectElement>('scale-select');
    expect(zoom.value).toBe('fit');
    expect([...zoom.options].map((option) => option.textContent)).toEqual([
      // jsdom lays nothing out: the stage measures 0 px, which fits at 100 %.
      'Ajustar à janela (100 %)',
      '50 %',
      '75 %',
      '100 %',
    ]);
    fireEvent.change(zoom, { target: { value: '0.75' } });
    expect(window.localStorage.getItem('vitrine.editor.scale')).toBe('0.75');
    expect(iframe().style.transform).toBe('scale(0.75)');
    fireEvent.change(zoom, { target: { value: 'fit' } });
    expect(window.localStorage.getItem('vitrine.editor.scale')).toBe('fit');
    fireEvent.click(screen.getByTestId('device-mobile'));
    expect(iframe().style.width).toBe('390px');
    fireEvent.change(screen.getByTestId('device-select'), { target: { value: 'android' } });
    expect(iframe().style.width).toBe('360px');
    expect(iframe().style.height).toBe('780px');
    expect(window.localStorage.getItem('vitrine.editor.device')).toBe('android');
  });

  it('opens the preview in a new window, with the post on collection pages', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const { calls } = await openEditor(
      {
        'GET /api/data/9': produtos,
      },
      { page: page({ table_id: 9, slug: 'produtos', is_home: false }) },
    );
    await waitFor(() => expect(screen.getByTestId<HTMLSelectElement>('post-select').value).toBe('bolo'));
    fireEvent.click(screen.getByTestId('preview-button'));
    expect(open).toHaveBeenCalledWith('/api/project/7/page/3/preview?post=bolo', '_blank', 'noopener');
    expect(renders(calls).at(-1)?.body).toEqual({ page_id: 3, post: 'bolo', blocks: [hero] });
    canvasSays({ vitrine: 1, type: 'select-block', uid: 'b-hero' });
    fireEvent.change(screen.getByTestId('bind-title'), { target: { value: 'preco' } });
    expect(screen.getByTestId('bound-title')).toBeTruthy();
  });

  it('keeps html rendered for another post out of the canvas', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const byPost: Handler = async (call) => {
      const body = call.body as { post?: string; blocks: PageBlock[] };
      if (!body.post) await held;
      return {
        json: {
          head: '',
          blocks: body.blocks.map((block) => ({
            uid: block.uid,
            html: `<p>${block.uid}@${body.post ?? 'none'}</p>`,
          })),
        },
      };
    };
    const calls = api(
      {
        'POST /api/project/7/render': byPost,
        'GET /api/data/9': () => ({
          json: {
            table: { id: 9, name: 'Produtos', slug: 'produtos' },
            fields: [],
            posts: [{ id: 1, name: 'Bolo', slug: 'bolo', created_at: '' }],
          },
        }),
      },
      { page: page({ table_id: 9, slug: 'produtos', is_home: false }) },
    );
    renderRoutes(routes, '/project/7/3');
    await waitFor(() => expect(screen.getByTestId<HTMLSelectElement>('post-select').value).toBe('bolo'));
    release();
    const frame = await screen.findByTestId('canvas-iframe');
    expect(frame.getAttribute('srcdoc')).toContain('<p>b-hero@bolo</p>');
    expect(frame.getAttribute('srcdoc')).not.toContain('@none');
    expect(renders(calls).map((call) => (call.body as { post?: string }).post)).toEqual([undefined, 'bolo']);
  });

  it('opens the Publish modal from Deploy', async () => {
    await openEditor();
    fireEvent.click(screen.getByTestId('deploy-button'));
    expect(screen.getByTestId('publish-modal')).toBeTruthy();
  });

  it("unpublishes from the top bar's publish dropdown, after a confirmation", async () => {
    const { calls } = await openEditor({
      'POST /api/unpublish/7': () => ({ json: { is_published: false } }),
    });
    const trigger = within(screen.getByTestId('editor-topbar')).getByTestId('publish-menu');
    expect(trigger.textContent).toContain('Site: Publicado');
    trigger.focus();
    fireEvent.keyDown(trigger, { key: 'ArrowDown' });
    fireEvent.keyUp(trigger, { key: 'ArrowDown' });
    await screen.findByRole('menu');
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'Publicar nova versão',
      'Despublicar',
      'Domínio…',
    ]);
    const item = screen.getByTestId('publish-menu-unpublish');
    fireEvent.keyDown(item, { key: 'Enter' });
    fireEvent.keyUp(item, { key: 'Enter' });
    expect((await screen.findByTestId('unpublish-modal')).textContent).toContain('sai do ar');
    expect(calls.some((call) => call.url === '/api/unpublish/7')).toBe(false);
    fireEvent.click(screen.getByTestId('unpublish-confirm'));
    await screen.findByTestId('unpublish-success');
    expect(calls.filter((call) => call.url === '/api/unpublish/7')).toHaveLength(1);
  });
});

describe('page tab', () => {
  it('normalises the slug when saving, even before the field is left', async () => {
    const { calls } = await openEditor({}, { page: page({ slug: 'sobre', is_home: false }) });
    fireEvent.click(screen.getByTestId('page-tab'));
    fireEvent.change(screen.getByTestId('page-slug'), { target: { value: '/Sobre Nós/' } });
    fireEvent.click(screen.getByTestId('save-state'));
    await waitFor(() =>
      expect(calls.find((call) => call.url === '/api/page/3')?.body).toMatchObject({ slug: 'sobre-nos' }),
    );
  });

  it('binds the page to a collection and unbinds it, the canvas following its post', async () => {
    const sobre = (overrides: Partial<Page> = {}) => page({ slug: 'sobre', is_home: false, ...overrides });
    const { calls } = await openEditor(
      {
        'GET /api/data/9': produtos,
        'POST /api/page/3': (call) => ({ json: { ...sobre(), ...(call.body as object) } }),
      },
      { page: sobre() },
    );
    expect(screen.queryByTestId('post-select')).toBeNull();
    fireEvent.click(screen.getByTestId('page-tab'));
    const select = screen.getByTestId<HTMLSelectElement>('page-collection');
    expect(select.disabled).toBe(false);
    expect(select.value).toBe('');
    fireEvent.change(select, { target: { value: '9' } });
    // Saved at once (the render API reads the post through the stored collection).
    await waitFor(() =>
      expect(calls.find((call) => call.url === '/api/page/3')?.body).toEqual({ table_id: 9 }),
    );
    await waitFor(() => expect(screen.getByTestId<HTMLSelectElement>('post-select').value).toBe('bolo'));
    expect(screen.getByTestId<HTMLSelectElement>('page-collection').value).toBe('9');
    await waitFor(() =>
      expect(renders(calls).at(-1)?.body).toEqual({ page_id: 3, post: 'bolo', blocks: [hero] }),
    );
    // The slug hint says the page is served at slug/*; block fields can bind to the post.
    expect(screen.getByTestId('page-settings').textContent).toContain('slug/*');

    fireEvent.change(screen.getByTestId('page-collection'), { target: { value: '' } });
    await waitFor(() =>
      expect(calls.filter((call) => call.url === '/api/page/3').at(-1)?.body).toEqual({ table_id: null }),
    );
    await waitFor(() => expect(screen.queryByTestId('post-select')).toBeNull());
    await waitFor(() => expect(renders(calls).at(-1)?.body).toEqual({ page_id: 3, blocks: [hero] }));
  });

  it('keeps the home page a simple page', async () => {
    await openEditor();
    fireEvent.click(screen.getByTestId('page-tab'));
    expect(screen.getByTestId<HTMLSelectElement>('page-collection').disabled).toBe(true);
  });

  it('edits the page settings and uploads only png or jpg images', async () => {
    const { calls } = await openEditor({
      'POST /api/upload': () => new Response('/files/uploads/1/7/seo.png', { status: 200 }),
    });
    fireEvent.click(screen.getByTestId('page-tab'));
    expect(screen.getByTestId<HTMLInputElement>('page-slug').disabled).toBe(true);
    fireEvent.change(screen.getByTestId('page-description'), { target: { value: 'Doces' } });
    const file = screen.getByTestId<HTMLInputElement>('page-image-upload-input');
    fireEvent.change(file, { target: { files: [new File(['x'], 'a.gif', { type: 'image/gif' })] } });
    await waitFor(() => expect(toastMessages()).toContain('Erro: envie somente imagens em JPG ou PNG.'));
    fireEvent.change(file, { target: { files: [new File(['x'], 'seo.png', { type: 'image/png' })] } });
    // The image shows as a thumbnail and its file name, not as its upload path.
    await waitFor(() => expect(screen.getByTestId('page-image-name').textContent).toBe('seo.png'));
    expect(screen.getByTestId<HTMLImageElement>('page-image-preview').getAttribute('src')).toBe(
      '/files/uploads/1/7/seo.png',
    );
    expect(screen.getByTestId('page-image').textContent).not.toContain('/files/uploads');
    expect(calls.find((call) => call.url === '/api/upload')?.body).toMatchObject({
      prefix: [1, 7],
      name: 'seo.png',
    });
    fireEvent.change(screen.getByTestId('page-header'), { target: { value: '<meta name="x">' } });
    fireEvent.click(screen.getByTestId('save-state'));
    await waitFor(() => expect(calls.some((call) => call.url === '/api/page/3')).toBe(true));
    expect(calls.find((call) => call.url === '/api/page/3')?.body).toMatchObject({
      description: 'Doces',
      image: '/files/uploads/1/7/seo.png',
      meta: { header: '<meta name="x">' },
    });
  });
});

describe('shared sections', () => {
  const header: PageBlock = {
    uid: 'global-header',
    name: 'Cabeçalho com menu',
    template: '<header>{{ brand }}</header>',
    css: '',
    js: '',
    vars: [{ name: 'brand', type: 'text', label: 'Nome', value: 'Padaria' }],
  };

  it('shows the global header on the canvas, marked, and saves its edits to the project', async () => {
    const { calls } = await openEditor(
      {
        'POST /api/project/7/sections/header': (call) => ({
          json: { header: (call.body as { block: PageBlock }).block },
        }),
      },
      { sections: { header } },
    );
    const doc = iframe().getAttribute('srcdoc') ?? '';
    expect(doc.indexOf('global-header:Padaria')).toBeLessThan(doc.indexOf('b-hero:Olá'));
    // Its label on the canvas says it is the site's shared header.
    canvasSays({
      vitrine: 1,
      type: 'layout',
      boxes: [
        { uid: 'global-header', top: 0, height: 40 },
        { uid: 'b-hero', top: 40, height: 200 },
      ],
      scrollY: 0,
    });
    const labels = screen.getAllByTestId('block-handle').map((handle) => handle.textContent);
    expect(labels[0]).toBe('⠿ Cabeçalho global · Cabeçalho com menu');
    canvasSays({ vitrine: 1, type: 'select-block', uid: 'global-header' });
    expect(screen.getByTestId('block-name').textContent).toBe('Cabeçalho com menu');
    expect(screen.getByTestId('shared-section-note').textContent).toContain('muda em todas as páginas');
    expect(screen.queryByTestId('block-remove')).toBeNull();
    fireEvent.change(within(screen.getByTestId('var-brand')).getByRole('textbox'), {
      target: { value: 'Forno da Ana' },
    });
    fireEvent.click(screen.getByTestId('save-state'));
    await waitFor(() =>
      expect(calls.find((call) => call.url === '/api/project/7/sections/header')?.body).toMatchObject({
        block: { uid: 'global-header', vars: [{ name: 'brand', value: 'Forno da Ana' }] },
      }),
    );
    // The page itself is saved without the header.
    await waitFor(() => expect(calls.some((call) => call.url === '/api/page/3')).toBe(true));
    expect(
      (calls.find((call) => call.url === '/api/page/3')?.body as { blocks: PageBlock[] }).blocks,
    ).toEqual([hero]);
  });

  it('makes a page block the site header through the API', async () => {
    const { calls } = await openEditor({
      'POST /api/project/7/page/3/sections/header': () => ({
        json: { page: page({ blocks: [] }), sections: { header: { ...hero, uid: 'global-header' } } },
      }),
    });
    canvasSays({ vitrine: 1, type: 'select-block', uid: 'b-hero' });
    fireEvent.click(screen.getByTestId('make-header'));
    await waitFor(() =>
      expect(toastMessages()).toContain('Agora é uma seção global: aparece em todas as páginas.'),
    );
    expect(calls.find((call) => call.url === '/api/project/7/page/3/sections/header')?.body).toEqual({
      uid: 'b-hero',
    });
    expect(screen.getByTestId('shared-section-note')).toBeTruthy();
    expect(screen.getByTestId('block-name').textContent).toBe('Hero');
  });

  it('unlinks the header on this page: a page copy, and the page opts out', async () => {
    const { calls } = await openEditor({}, { sections: { header } });
    canvasSays({ vitrine: 1, type: 'select-block', uid: 'global-header' });
    fireEvent.click(screen.getByTestId('section-unlink'));
    expect(screen.getByTestId('block-name').textContent).toBe('Cabeçalho com menu');
    expect(screen.getByTestId('block-remove')).toBeTruthy();
    fireEvent.click(screen.getByTestId('save-state'));
    await waitFor(() => expect(calls.some((call) => call.url === '/api/page/3')).toBe(true));
    const saved = calls.find((call) => call.url === '/api/page/3')?.body as {
      blocks: PageBlock[];
      meta: Record<string, unknown>;
    };
    expect(saved.meta).toEqual({ hideHeader: true });
    expect(saved.blocks.map((block) => block.template)).toEqual([header.template, hero.template]);
    expect(calls.some((call) => call.url.includes('/sections/'))).toBe(false);
  });

  it('undoes and redoes an edit of the header, and saves the header as undone', async () => {
    const { calls } = await openEditor(
      {
        'POST /api/project/7/sections/header': (call) => ({
          json: { header: (call.body as { block: PageBlock }).block },
        }),
      },
      { sections: { header } },
    );
    const brands = () =>
      calls
        .filter((call) => call.url === '/api/project/7/sections/header')
        .map((call) => (call.body as { block: PageBlock }).block.vars[0]?.value);
    const input = () => within(screen.getByTestId('var-brand')).getByRole<HTMLInputElement>('textbox');
    canvasSays({ vitrine: 1, type: 'select-block', uid: 'global-header' });
    fireEvent.change(input(), { target: { value: 'Forno da Ana' } });
    fireEvent.click(screen.getByTestId('save-state'));
    await waitFor(() => expect(brands()).toEqual(['Forno da Ana']));
    await waitFor(() => expect(screen.getByTestId('save-state').getAttribute('data-state')).toBe('saved'));

    fireEvent.click(screen.getByTestId('undo'));
    expect(input().value).toBe('Padaria');
    expect(screen.getByTestId('save-state').getAttribute('data-state')).toBe('dirty');
    fireEvent.click(screen.getByTestId('save-state'));
    await waitFor(() => expect(brands()).toEqual(['Forno da Ana', 'Padaria']));
    fireEvent.click(screen.getByTestId('redo'));
    expect(input().value).toBe('Forno da Ana');
  });

  it('lets a page leave out the header and the menu in the page tab', async () => {
    const { calls } = await openEditor({}, { sections: { header } });
    fireEvent.click(screen.getByTestId('page-tab'));
    expect(screen.queryByTestId('page-show-footer')).toBeNull();
    fireEvent.click(screen.getByTestId('page-show-header'));
    fireEvent.click(screen.getByTestId('page-in-menu'));
    fireEvent.click(screen.getByTestId('save-state'));
    await waitFor(() =>
      expect(calls.find((call) => call.url === '/api/page/3')?.body).toMatchObject({
        meta: { hideHeader: true, hideInMenu: true },
      }),
    );
  });
});
