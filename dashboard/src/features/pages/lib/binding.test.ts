import { describe, expect, it } from 'vitest';
import type { PageSummary } from '@/lib/types';
import type { CollectionField } from '@/features/pages/api/get-collection-data';
import type { BlockVar, VarType } from '@/features/pages/types';
import { fieldFor, listingPage, mapListFields, seeAllLink } from './binding';

let nextId = 1;
const field = (slug: string, type: string, name = slug): CollectionField => ({
  id: nextId++,
  slug,
  name,
  type,
});
const sub = (name: string, type: VarType = 'text', label?: string, dbfield?: string): BlockVar => ({
  name,
  type,
  ...(label ? { label } : {}),
  ...(dbfield !== undefined ? { dbfield } : {}),
});

/** A shop's collection, named in Portuguese as owners do. */
const shop = [
  field('foto', 'image', 'Foto'),
  field('preco', 'currency', 'Preço'),
  field('preco-antigo', 'currency', 'Preço antigo'),
  field('zap', 'whatsapp_link', 'WhatsApp'),
  field('descricao', 'wysiwyg', 'Descrição'),
  field('resumo', 'textarea', 'Resumo'),
  field('fone', 'telephone_link', 'Telefone'),
];

describe('fieldFor: a sub-variable of a bound list', () => {
  it.each<[string, BlockVar, string]>([
    ['a title, the record name', sub('title'), 'name'],
    ['"Nome", the record name', sub('nome'), 'name'],
    ['a price, the currency field', sub('price'), 'preco'],
    [
      '"Preço anterior", the currency field named so',
      sub('old_price', 'text', 'Preço antigo'),
      'preco-antigo',
    ],
    ['a photo, the image field', sub('photo', 'image'), 'foto'],
    ['an image var of any name, the image field', sub('cover_pic', 'image'), 'foto'],
    ['WhatsApp, the whatsapp_link field', sub('whatsapp', 'link'), 'zap'],
    ['a description, a text field (the long one first)', sub('description', 'richtext'), 'descricao'],
    ['"Resumo", the field called so', sub('resumo', 'textarea'), 'resumo'],
    ['an excerpt, a text field', sub('excerpt', 'textarea', 'Resumo'), 'resumo'],
    ['a link, the permalink', sub('link'), 'permalink'],
    ['a url, the permalink', sub('url'), 'permalink'],
    ['a telephone, the telephone_link field', sub('phone'), 'fone'],
    ['a date, the creation date', sub('date', 'text', 'Data'), 'date'],
    ['nothing that fits, nothing', sub('badge', 'text', 'Selo'), ''],
  ])('%s', (_, v, expected) => expect(fieldFor(v, shop)).toBe(expected));

  it('leaves a price empty in a collection without a currency field', () => {
    expect(fieldFor(sub('price'), [field('titulo', 'text')])).toBe('');
  });
});

describe('mapListFields', () => {
  it('fills the seeded product grid for a shop without touching what fits', () => {
    const grid = [
      sub('title', 'text', 'Título', 'name'),
      sub('image', 'image', 'Imagem', 'image'),
      sub('excerpt', 'textarea', 'Resumo', 'excerpt'),
      sub('link', 'text', 'Link', 'url'),
      sub('date', 'text', 'Data', 'date'),
      sub('price', 'text', 'Preço', 'price'),
      sub('whatsapp', 'link', 'WhatsApp'),
    ];
    expect(mapListFields(grid, shop).map((v) => [v.name, v.dbfield])).toEqual([
      ['title', 'name'],
      ['image', 'foto'],
      ['excerpt', 'resumo'],
      ['link', 'url'],
      ['date', 'date'],
      ['price', 'preco'],
      ['whatsapp', 'zap'],
    ]);
  });

  it('keeps a binding to a field the collection has, raw ones included', () => {
    const vars = [sub('cost', 'text', 'Custo', 'raw.preco')];
    expect(mapListFields(vars, shop)[0]?.dbfield).toBe('raw.preco');
  });
});

describe('the "see all" link', () => {
  it.each<[BlockVar[], string | undefined]>([
    [[sub('title'), sub('more', 'link', 'Link “ver todos”')], 'more'],
    [[sub('cta', 'link', 'Ver catálogo completo')], 'cta'],
    [[sub('see_all', 'link')], 'see_all'],
    [[sub('buy', 'link', 'Botão de compra')], undefined],
    [[sub('more', 'text', 'Ver todos')], undefined],
  ])('in %j is %j', (vars, expected) => expect(seeAllLink(vars)?.name).toBe(expected));
});

describe('listingPage', () => {
  const page = (id: number, name: string, slug: string, table_id: number | null = null): PageSummary => ({
    id,
    name,
    slug,
    table_id,
    is_home: slug === '/',
    updated_at: '2026-01-01T00:00:00Z',
  });
  const pages = [
    page(1, 'Início', '/'),
    page(2, 'Produtos', 'produtos'),
    page(3, 'Produto', 'produto', 9),
    page(4, 'Sobre', 'sobre'),
  ];

  it("is the static page at the collection's address", () => {
    expect(listingPage(pages, { name: 'Produtos', slug: 'produtos' }, 1)?.id).toBe(2);
  });

  it('is found by name too, never the page being edited nor a collection page', () => {
    expect(listingPage([page(5, 'Cardápio', 'menu')], { name: 'Cardápio', slug: 'cardapio' }, 1)?.id).toBe(5);
    expect(listingPage(pages, { name: 'Produtos', slug: 'produtos' }, 2)).toBeUndefined();
    expect(listingPage(pages, { name: 'Produto', slug: 'produto' }, 1)).toBeUndefined();
  });
});
