// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { mockApi, renderRoutes } from '@/testing/render-route';
import type { PageSummary } from '@/lib/types';
import type { PageBlock } from '@/features/pages/types';
import { EditorContext, type EditorContextValue } from './editor-context';
import { BlockTab } from './BlockTab';

const summary = (id: number, name: string, slug: string, table_id: number | null = null): PageSummary => ({
  id,
  name,
  slug,
  table_id,
  is_home: slug === '/',
  updated_at: '2026-01-01T00:00:00Z',
});

const context: EditorContextValue = {
  userId: 1,
  projectId: 7,
  tables: [{ id: 9, name: 'Produtos', slug: 'produtos' }],
  postFields: null,
  pages: [summary(1, 'Início', '/'), summary(2, 'Produtos', 'produtos'), summary(3, 'Produto', 'produto', 9)],
  pageId: 1,
};

/** The seeded product grid, still bound to its template's collection. */
const grid: PageBlock = {
  uid: 'b-grid',
  name: 'Grade de produtos',
  template: '<section></section>',
  css: '',
  js: '',
  vars: [
    { name: 'title', type: 'text', label: 'Título', value: 'Nossos produtos' },
    {
      name: 'more',
      type: 'link',
      label: 'Link “ver todos”',
      value: { href: '/catalogo', label: 'Ver catálogo completo', target: '_self' },
    },
    {
      name: 'products',
      type: 'list',
      label: 'Produtos (coleção)',
      value: [],
      source: 'manual',
      vars: [
        { name: 'title', type: 'text', label: 'Título', dbfield: 'name' },
        { name: 'image', type: 'image', label: 'Imagem', dbfield: 'image' },
        { name: 'price', type: 'text', label: 'Preço', dbfield: 'price' },
        { name: 'whatsapp', type: 'link', label: 'WhatsApp' },
        { name: 'link', type: 'text', label: 'Link' },
      ],
    },
  ],
};

function mount() {
  let current = grid;
  function Harness() {
    const [block, setBlock] = useState(grid);
    current = block;
    return (
      <EditorContext.Provider value={context}>
        <BlockTab
          block={block}
          index={0}
          count={1}
          onVarChange={(name, change) =>
            setBlock((b) => ({
              ...b,
              vars: b.vars.map((v) =>
                v.name === name ? { ...v, ...(typeof change === 'function' ? change(v) : change) } : v,
              ),
            }))
          }
          onToggleEffect={() => undefined}
          onMove={() => undefined}
          onDuplicate={() => undefined}
          onRemove={() => undefined}
          onEditCode={() => undefined}
        />
      </EditorContext.Provider>
    );
  }
  renderRoutes([{ path: '/', element: <Harness /> }], '/');
  return () => current;
}

describe('binding a list block to a collection', () => {
  it("fills the items' fields by type and name and points “see all” at the collection's page", async () => {
    mockApi({
      'GET /api/data/9': () => ({
        json: {
          table: { id: 9, name: 'Produtos', slug: 'produtos' },
          fields: [
            { id: 1, name: 'Foto', slug: 'foto', type: 'image' },
            { id: 2, name: 'Preço', slug: 'preco', type: 'currency' },
            { id: 3, name: 'WhatsApp', slug: 'zap', type: 'whatsapp_link' },
          ],
          posts: [],
        },
      }),
    });
    const block = mount();
    fireEvent.change(screen.getByTestId('list-source'), { target: { value: 'db' } });
    fireEvent.change(await screen.findByTestId('list-table'), { target: { value: 'produtos' } });
    await waitFor(() => expect(block().vars[2]?.source).toBe('db:produtos'));
    expect(block().vars[2]?.vars?.map((v) => [v.name, v.dbfield])).toEqual([
      ['title', 'name'],
      ['image', 'foto'],
      ['price', 'preco'],
      ['whatsapp', 'zap'],
      ['link', 'permalink'],
    ]);
    expect(block().vars[1]?.value).toEqual({
      href: '/produtos',
      label: 'Ver catálogo completo',
      target: '_self',
    });
    // What was guessed shows in the selects, for the owner to adjust.
    expect(screen.getByTestId<HTMLSelectElement>('list-dbfield-price').value).toBe('preco');
  });

  it('binds without guessing when the fields cannot be read', async () => {
    mockApi({ 'GET /api/data/9': () => ({ status: 500, json: { error: 'internal', message: 'down' } }) });
    const block = mount();
    fireEvent.change(screen.getByTestId('list-source'), { target: { value: 'db' } });
    fireEvent.change(await screen.findByTestId('list-table'), { target: { value: 'produtos' } });
    await waitFor(() => expect(block().vars[2]?.source).toBe('db:produtos'));
    expect(block().vars[2]?.vars?.[2]?.dbfield).toBe('price');
  });
});
