/**
 * Binding a list block to a collection fills its fields (issue 41 §4): each sub-variable of the
 * list gets the record value its name and type call for (title → the record's name, price → a
 * currency field, photo → an image field, WhatsApp → a whatsapp_link field, description → a
 * text field, link → the post's permalink), and the block's "see all" link goes to the owner's
 * page that lists the collection. The owner then only adjusts.
 */
import type { PageSummary, TableSummary } from '@/lib/types';
import type { CollectionField } from '@/features/pages/api/get-collection-data';
import type { BlockVar } from '@/features/pages/types';
import { hasWord } from './insert-position';

/** What a sub-variable can be filled with besides the collection's own fields (docs/blocks.md). */
const BUILT_IN = new Set(['name', 'slug', 'date', 'date_long', 'url', 'permalink']);

interface Rule {
  /** Words of the variable's name or label (accents and case folded). */
  words: readonly string[];
  /** A built-in record value, or the field types that fit, best first. */
  to: { builtIn: string } | { types: readonly string[] };
}

const TEXT_TYPES = ['textarea', 'wysiwyg', 'text', 'string'] as const;
const RICH_TYPES = ['wysiwyg', 'textarea', 'text', 'string'] as const;

/** The rules in the order they are tried: the first whose words match decides. */
const RULES: readonly Rule[] = [
  { words: ['whatsapp', 'zap', 'wa'], to: { types: ['whatsapp_link'] } },
  { words: ['price', 'preco', 'valor', 'value', 'cost', 'custo'], to: { types: ['currency'] } },
  {
    words: ['photo', 'foto', 'image', 'imagem', 'img', 'picture', 'thumbnail', 'capa', 'cover'],
    to: { types: ['image', 'gallery', 'image-select'] },
  },
  { words: ['phone', 'telefone', 'tel', 'fone'], to: { types: ['telephone_link'] } },
  { words: ['email', 'mail'], to: { types: ['email_link'] } },
  { words: ['title', 'titulo', 'name', 'nome', 'heading'], to: { builtIn: 'name' } },
  {
    words: [
      'description',
      'descricao',
      'text',
      'texto',
      'excerpt',
      'resumo',
      'summary',
      'content',
      'conteudo',
      'body',
    ],
    to: { types: TEXT_TYPES },
  },
  { words: ['link', 'url', 'href', 'permalink'], to: { builtIn: 'permalink' } },
  { words: ['date', 'data'], to: { builtIn: 'date' } },
];

/** The variable's own name and label, split into words (`old_price` reads "old price"). */
function wordsOf(v: BlockVar): string {
  return `${v.name.replace(/([a-z])([A-Z])/g, '$1 $2')} ${v.label ?? ''}`;
}

function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_');
}

/** The folded words of a text: "Preço antigo" and `preco-antigo` are both `preco`, `antigo`. */
function words(text: string): Set<string> {
  return new Set(fold(text).split('_').filter(Boolean));
}

/**
 * The field of one of `types` most like the variable: the one sharing the most words with its
 * name and label ("Preço anterior" → "Preço antigo" before "Preço"), then the better type.
 */
function fieldOfTypes(
  v: BlockVar,
  fields: readonly CollectionField[],
  types: readonly string[],
): string | undefined {
  const own = words(wordsOf(v));
  let best: { slug: string; score: number } | undefined;
  for (const field of fields) {
    const rank = types.indexOf(field.type);
    if (rank === -1) continue;
    const shared = [...words(`${field.name} ${field.slug}`)].filter((word) => own.has(word)).length;
    const score = shared * types.length + (types.length - rank);
    if (!best || score > best.score) best = { slug: field.slug, score };
  }
  return best?.slug;
}

/** The record value one sub-variable should show, or "" when nothing fits. */
export function fieldFor(v: BlockVar, fields: readonly CollectionField[]): string {
  // A field called like the variable is the owner's own choice of name: it wins.
  const same = fields.find((field) => fold(field.slug) === fold(v.name) || fold(field.name) === fold(v.name));
  if (same) return same.slug;
  const text = wordsOf(v);
  for (const rule of RULES) {
    if (!hasWord(text, rule.words)) continue;
    if ('builtIn' in rule.to) return rule.to.builtIn;
    // Rich text shows a rich text field best; a plain one, plain text.
    const types = v.type === 'richtext' && rule.to.types === TEXT_TYPES ? RICH_TYPES : rule.to.types;
    const found = fieldOfTypes(v, fields, types);
    if (found) return found;
  }
  // Nothing by name: an image variable still shows the collection's first picture.
  if (v.type === 'image') return fieldOfTypes(v, fields, ['image', 'gallery']) ?? '';
  if (v.type === 'richtext') return fieldOfTypes(v, fields, RICH_TYPES) ?? '';
  return '';
}

/** Whether `dbfield` names something this collection has. */
function fits(dbfield: string | undefined, fields: readonly CollectionField[]): boolean {
  if (!dbfield) return false;
  const slug = dbfield.startsWith('raw.') ? dbfield.slice(4) : dbfield;
  return BUILT_IN.has(dbfield) || fields.some((field) => field.slug === slug);
}

/**
 * The list's sub-variables bound to a collection's fields: a binding the collection can give is
 * kept (the block's author or the owner chose it), every other one is filled by `fieldFor`.
 */
export function mapListFields(vars: readonly BlockVar[], fields: readonly CollectionField[]): BlockVar[] {
  return vars.map((v) => (fits(v.dbfield, fields) ? v : { ...v, dbfield: fieldFor(v, fields) }));
}

const SEE_ALL = ['more', 'all', 'see', 'todos', 'todas', 'ver', 'mais', 'catalogo', 'catalog', 'completo'];

/** The block's "see all" link: a `link` variable named or labelled so ("Link “ver todos”", `more`). */
export function seeAllLink(vars: readonly BlockVar[]): BlockVar | undefined {
  return vars.find((v) => v.type === 'link' && hasWord(wordsOf(v), SEE_ALL));
}

/**
 * The owner's page that lists `table`: a static page (not this one, not the home page) whose
 * address or name is the collection's (the templates' "Produtos" page at /produtos lists the
 * "produtos" collection). Undefined when the project has none.
 */
export function listingPage(
  pages: readonly PageSummary[],
  table: Pick<TableSummary, 'name' | 'slug'>,
  currentPageId: number | null,
): PageSummary | undefined {
  const names = new Set([fold(table.slug), fold(table.name)]);
  return pages.find(
    (page) =>
      page.table_id === null &&
      !page.is_home &&
      page.id !== currentPageId &&
      (names.has(fold(page.slug)) || names.has(fold(page.name))),
  );
}
