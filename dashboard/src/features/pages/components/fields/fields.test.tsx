// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { acceptConfirm, cancelConfirm, confirmText } from '@/testing/dialogs';
import { getToasts } from '@/testing/toasts';
import { mockApi, renderRoutes } from '@/testing/render-route';
import type { BlockVar } from '@/features/pages/types';
import { EditorContext, type EditorContextValue } from '@/features/pages/components/editor-context';
import { VarEditor } from './VarEditor';

const toastMessages = () => getToasts().map((toast) => toast.message);

const context: EditorContextValue = {
  userId: 1,
  projectId: 7,
  tables: [{ id: 9, name: 'Produtos', slug: 'produtos' }],
  postFields: null,
};

/** One variable in the Block tab, holding its definition in state like the editor does. */
function mount(initial: BlockVar, value: EditorContextValue = context) {
  const seen: BlockVar[] = [];
  function Harness() {
    const [v, setV] = useState(initial);
    return (
      <EditorContext.Provider value={value}>
        <VarEditor
          uid="b-1"
          v={v}
          onChange={(change) =>
            setV((current) => {
              const next = { ...current, ...(typeof change === 'function' ? change(current) : change) };
              seen.push(next);
              return next;
            })
          }
        />
      </EditorContext.Provider>
    );
  }
  renderRoutes([{ path: '/', element: <Harness /> }], '/');
  return { last: () => seen[seen.length - 1] };
}

beforeEach(() => {});

describe('Block tab inputs', () => {
  it('keeps padding at 0 or more and opacity in steps of 0.1', () => {
    const padding = mount({ name: 'pad', type: 'padding', value: { top: 4, right: 0, bottom: 0, left: 0 } });
    const inputs = within(screen.getByTestId('var-pad')).getAllByRole('spinbutton');
    expect(inputs.map((input) => input.getAttribute('min'))).toEqual(['0', '0', '0', '0']);
    fireEvent.change(inputs[0]!, { target: { value: '-3' } });
    expect(padding.last()?.value).toEqual({ top: 0, right: 0, bottom: 0, left: 0 });
    fireEvent.change(inputs[1]!, { target: { value: '12' } });
    expect(padding.last()?.value).toEqual({ top: 0, right: 12, bottom: 0, left: 0 });
  });

  it('edits opacity, units and headings in their documented shapes', () => {
    const opacity = mount({ name: 'o', type: 'opacity', value: 0.5 });
    const slider = within(screen.getByTestId('var-o')).getByRole('slider');
    expect([slider.getAttribute('min'), slider.getAttribute('max'), slider.getAttribute('step')]).toEqual([
      '0',
      '1',
      '0.1',
    ]);
    fireEvent.change(slider, { target: { value: '0.8' } });
    expect(opacity.last()?.value).toBe(0.8);

    const unit = mount({ name: 'w', type: 'unit', value: { value: 10, unit: 'px' } });
    const box = within(screen.getByTestId('var-w'));
    fireEvent.change(box.getByRole('combobox'), { target: { value: 'auto' } });
    expect(unit.last()?.value).toEqual({ value: null, unit: 'auto' });
    expect(box.getByRole<HTMLInputElement>('spinbutton').disabled).toBe(true);
    expect(
      within(box.getByRole('combobox'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['auto', 'px', 'em', '%']);

    mount({ name: 'tag', type: 'heading', value: 'h2' });
    expect(
      within(screen.getByTestId('var-tag'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'div', 'p', 'strong', 'em', 'del', 'ins']);
  });

  it('edits a gradient background with the four angles, and an image background with nine positions', () => {
    const bg = mount({ name: 'bg', type: 'background', value: { type: 'solid', color: '#ffffff' } });
    const box = () => within(screen.getByTestId('var-bg'));
    fireEvent.change(box().getAllByRole('combobox')[0]!, { target: { value: 'gradient' } });
    const angles = box().getAllByRole('combobox')[1]!;
    expect(
      within(angles)
        .getAllByRole('option')
        .map((o) => o.getAttribute('value')),
    ).toEqual(['90', '180', '45', '135']);
    fireEvent.change(angles, { target: { value: '45' } });
    expect(bg.last()?.value).toMatchObject({ type: 'gradient', angle: 45 });
    fireEvent.change(box().getAllByRole('combobox')[0]!, { target: { value: 'image' } });
    const positions = box().getAllByRole('radio');
    expect(positions).toHaveLength(9);
    fireEvent.click(box().getByRole('radio', { name: 'Abaixo à direita' }));
    expect(bg.last()?.value).toMatchObject({ type: 'image', position: 'bottom right' });
  });

  it('uploads block images under the user and project, refusing other formats', async () => {
    const calls = mockApi({
      'POST /api/upload': () => new Response('/files/uploads/1/7/a.jpg\n', { status: 200 }),
    });
    const image = mount({ name: 'img', type: 'image', value: { src: '', alt: '' } });
    const input = screen.getByTestId('var-b-1-img-upload-input');
    fireEvent.change(input, { target: { files: [new File(['x'], 'a.webp', { type: 'image/webp' })] } });
    await waitFor(() => expect(toastMessages()).toContain('Erro: envie somente imagens em JPG ou PNG.'));
    expect(calls).toHaveLength(0);
    fireEvent.change(input, { target: { files: [new File(['x'], 'a.jpg', { type: 'image/jpeg' })] } });
    await waitFor(() => expect(image.last()?.value).toEqual({ src: '/files/uploads/1/7/a.jpg', alt: '' }));
    expect(calls[0]?.body).toMatchObject({ prefix: [1, 7], name: 'a.jpg', accept: 'image' });
    expect(String((calls[0]?.body as { content: string }).content)).toMatch(/^data:image\/jpeg;base64,/);
  });

  it('edits rich text with tiptap, its images uploaded under the user and project', async () => {
    const calls = mockApi({
      'POST /api/upload': () => new Response('/files/uploads/1/7/b.png', { status: 200 }),
    });
    const rich = mount({ name: 'body', type: 'richtext', value: '<p>Olá</p>' });
    // The rich-text editor is its own lazily loaded chunk: its first import in jsdom takes seconds.
    const content = await screen.findByTestId('var-b-1-body-rich', {}, { timeout: 8000 });
    expect(content.innerHTML).toContain('<p>Olá</p>');
    const file = within(screen.getByTestId('var-body'))
      .getByRole('toolbar')
      .querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(file, { target: { files: [new File(['x'], 'b.png', { type: 'image/png' })] } });
    await waitFor(() =>
      expect(String(rich.last()?.value)).toContain('<img src="/files/uploads/1/7/b.png" alt="b.png">'),
    );
    expect(calls[0]?.body).toMatchObject({ prefix: [1, 7], name: 'b.png' });
  });

  it('binds a variable to the post on collection pages', () => {
    const bound = mount(
      { name: 'title', type: 'text', value: 'x' },
      { ...context, postFields: [{ id: 3, name: 'Preço', slug: 'preco', type: 'currency' }] },
    );
    const select = screen.getByTestId('bind-title');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.getAttribute('value')),
    ).toEqual(['', 'date', 'name', 'permalink', 'preco']);
    fireEvent.change(select, { target: { value: 'permalink' } });
    expect(bound.last()?.postfield).toBe('permalink');
    expect(screen.getByTestId('bound-title')).toBeTruthy();
    fireEvent.change(select, { target: { value: '' } });
    expect(bound.last()?.postfield).toBeUndefined();
  });
});

describe('table variables', () => {
  const table: BlockVar = {
    name: 'rows',
    type: 'table',
    columns: [{ key: 'price', label: 'Preço', type: 'text' }],
    value: [{ price: '10' }],
  };

  it('checks new columns: key required, [a-z0-9_]+, unique', () => {
    const t = mount(table);
    const add = (key: string, label: string) => {
      fireEvent.change(screen.getByTestId('table-column-key'), { target: { value: key } });
      fireEvent.change(screen.getByTestId('table-column-label'), { target: { value: label } });
      fireEvent.click(screen.getByTestId('table-column-add'));
    };
    const problem = () => screen.getByTestId('table-column-problem').textContent;
    add('', 'Nome');
    expect(problem()).toBe('O ID da coluna é obrigatório');
    add('Nome!', 'Nome');
    expect(problem()).toBe('O ID da coluna só pode conter a-z, 0-9 e _');
    add('price', 'Outro');
    expect(problem()).toBe('o ID da coluna já existe');
    expect(screen.getAllByTestId('table-column')).toHaveLength(1);
    add('name_2', 'Nome');
    expect(screen.queryByTestId('table-column-problem')).toBeNull();
    expect(t.last()?.columns).toEqual([
      { key: 'price', label: 'Preço', type: 'text' },
      { key: 'name_2', label: 'Nome', type: 'text' },
    ]);
  });

  it('edits rows and asks before deleting a column', async () => {
    const t = mount(table);
    fireEvent.click(screen.getByTestId('table-add-row'));
    expect(t.last()?.value).toEqual([{ price: '10' }, { price: '' }]);
    fireEvent.change(screen.getByLabelText('Preço 2'), { target: { value: '20' } });
    expect(t.last()?.value).toEqual([{ price: '10' }, { price: '20' }]);
    fireEvent.click(screen.getByTestId('table-column-delete'));
    expect(await confirmText()).toBe(
      'Excluir a coluna "Preço"? Os valores dessa coluna em todas as linhas serão perdidos.',
    );
    await cancelConfirm();
    expect(screen.getAllByTestId('table-column')).toHaveLength(1);
    fireEvent.click(screen.getByTestId('table-column-delete'));
    await acceptConfirm();
    await waitFor(() => expect(t.last()?.columns).toEqual([]));
    expect(t.last()?.value).toEqual([{}, {}]);
  });
});

describe('list variables', () => {
  const list: BlockVar = {
    name: 'items',
    type: 'list',
    vars: [{ name: 'title', type: 'text', label: 'Título', value: 'Novo' }],
    value: [{ title: 'A' }, { title: 'B' }],
  };

  it('adds, edits, reorders and removes manual items', () => {
    const l = mount(list);
    fireEvent.click(screen.getByTestId('list-add'));
    expect(l.last()?.value).toEqual([{ title: 'A' }, { title: 'B' }, { title: 'Novo' }]);
    const items = () => screen.getAllByTestId('list-item');
    fireEvent.change(within(items()[2]!).getByRole('textbox'), { target: { value: 'C' } });
    fireEvent.click(within(items()[2]!).getByTestId('list-item-up'));
    expect(l.last()?.value).toEqual([{ title: 'A' }, { title: 'C' }, { title: 'B' }]);
    fireEvent.click(within(items()[0]!).getByTestId('list-item-remove'));
    expect(l.last()?.value).toEqual([{ title: 'C' }, { title: 'B' }]);
  });

  it('keeps edits made to other items while an item image uploads', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    mockApi({ 'POST /api/upload': async () => (await held, new Response('/files/p.png', { status: 200 })) });
    const l = mount({
      name: 'cards',
      type: 'list',
      vars: [
        { name: 'title', type: 'text', value: '' },
        { name: 'photo', type: 'image', value: { src: '', alt: '' } },
      ],
      value: [
        { title: 'A', photo: { src: '', alt: '' } },
        { title: 'B', photo: { src: '', alt: '' } },
      ],
    });
    fireEvent.change(screen.getByTestId('var-b-1-cards-0-photo-upload-input'), {
      target: { files: [new File(['x'], 'p.png', { type: 'image/png' })] },
    });
    fireEvent.change(within(screen.getAllByTestId('list-item')[1]!).getAllByRole('textbox')[0]!, {
      target: { value: 'B2' },
    });
    release();
    await waitFor(() =>
      expect(l.last()?.value).toEqual([
        { title: 'A', photo: { src: '/files/p.png', alt: '' } },
        { title: 'B2', photo: { src: '', alt: '' } },
      ]),
    );
  });

  it('reads records of a collection with filter, order, limit and offset', async () => {
    mockApi({
      'GET /api/data/9': () => ({
        json: {
          table: { id: 9, name: 'Produtos', slug: 'produtos' },
          fields: [{ id: 3, name: 'Preço', slug: 'preco', type: 'currency' }],
          posts: [],
        },
      }),
    });
    const l = mount(list);
    fireEvent.change(screen.getByTestId('list-source'), { target: { value: 'db' } });
    fireEvent.change(screen.getByTestId('list-table'), { target: { value: 'produtos' } });
    // Bound once the collection's fields are read (they fill the items' fields).
    await waitFor(() => expect(l.last()?.source).toBe('db:produtos'));
    await waitFor(() =>
      expect(
        within(screen.getByTestId('list-filter-field'))
          .getAllByRole('option')
          .map((o) => o.getAttribute('value')),
      ).toEqual(['', 'created_at', 'name', 'preco']),
    );
    fireEvent.change(screen.getByTestId('list-filter-field'), { target: { value: 'preco' } });
    fireEvent.change(screen.getByTestId('list-filter-operator'), { target: { value: '>=' } });
    fireEvent.change(screen.getByTestId('list-filter-value'), { target: { value: '10' } });
    fireEvent.change(screen.getByTestId('list-order-field'), { target: { value: 'created_at' } });
    fireEvent.change(screen.getByTestId('list-order-dir'), { target: { value: 'asc' } });
    fireEvent.change(screen.getByTestId('list-limit'), { target: { value: '500' } });
    fireEvent.change(screen.getByTestId('list-offset'), { target: { value: '5' } });
    fireEvent.change(screen.getByTestId('list-dbfield-title'), { target: { value: 'name' } });
    expect(l.last()).toMatchObject({
      source: 'db:produtos',
      dbfilterfield: 'preco',
      dbfilterquery: '>=',
      dbfiltervalue: '10',
      dborderfield: 'created_at',
      dborderdir: 'asc',
      dblimit: 100,
      dboffset: 5,
      vars: [{ name: 'title', type: 'text', label: 'Título', value: 'Novo', dbfield: 'name' }],
    });
  });

  it('reads records from an API with a source map', () => {
    const l = mount(list);
    fireEvent.change(screen.getByTestId('list-source'), { target: { value: 'api' } });
    fireEvent.change(screen.getByTestId('list-api-url'), {
      target: { value: 'https://api.example.com/items' },
    });
    fireEvent.change(screen.getByTestId('list-map-title'), { target: { value: 'data.name' } });
    expect(l.last()).toMatchObject({
      source: 'api:https://api.example.com/items',
      sourceMap: { title: 'data.name' },
    });
  });

  it('tries an API source through the fetch proxy and lists the record fields', async () => {
    const calls = mockApi({
      'GET /api/fetch': () => ({ json: { data: [{ name: 'A', img: { src: '/a.png' } }, { name: 'B' }] } }),
    });
    mount({ ...list, source: 'api:https://api.example.com/items' });
    fireEvent.click(screen.getByTestId('list-api-try'));
    await waitFor(() =>
      expect(screen.getByTestId('list-api-result').textContent).toBe('2 registros; campos: name, img.src'),
    );
    expect(calls[0]?.url).toBe('/api/fetch?url=https%3A%2F%2Fapi.example.com%2Fitems');
  });
});
