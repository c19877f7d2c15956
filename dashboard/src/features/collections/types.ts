/** Collections (tables), their fields and records (posts), as in the API contract. */

export const FIELD_TYPES = [
  'text',
  'string',
  'textarea',
  'wysiwyg',
  'image',
  'gallery',
  'file',
  'multiple-file',
  'select',
  'multiselect',
  'checkbox',
  'currency',
  'whatsapp_link',
  'telephone_link',
  'email_link',
  'image-select',
  'relation',
  'csvtable',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const CURRENCY_FORMATS = [
  '(symbol) 9.999,99',
  '(symbol) 9,999.99',
  '9.999,99 (symbol)',
  '9,999.99 (symbol)',
] as const;
export type CurrencyFormat = (typeof CURRENCY_FORMATS)[number];

export type OrderDir = 'asc' | 'desc';

export interface TableMeta {
  plural: string;
  singular: string;
  hasSingular: boolean;
  includeDate: boolean;
  includeTitle: boolean;
  /** "created_at" | "updated_at" | "name" | "slug" | a field id as text. */
  orderField: string;
  orderDir: OrderDir;
  orderField2?: string | null;
  orderDir2?: OrderDir | null;
}

export interface FieldOption {
  name: string;
  image?: string;
}

export interface FieldMeta {
  /** Relation target table id. */
  table?: number;
  /** csvtable; default ",". */
  delimiter?: string;
  /** currency; default "R$". */
  symbol?: string;
  format?: CurrencyFormat;
  hideAtListing?: boolean;
}

export interface Field {
  id: number;
  table_id: number;
  name: string;
  slug: string;
  type: FieldType;
  required: '1' | '0';
  options: FieldOption[];
  meta: FieldMeta;
  order: number;
}

export interface Table {
  id: number;
  project_id: number;
  name: string;
  slug: string;
  meta: TableMeta;
  fields: Field[];
  created_at: string;
  updated_at: string;
}

export interface PostFieldValue {
  field_id: number;
  value: unknown;
}

export interface Post {
  id: number;
  table_id: number;
  name: string;
  slug: string;
  created_at: string;
  updated_at: string;
  fields: PostFieldValue[];
}

/** One page of records: GET /api/data/{table_id}. */
export interface DataPage {
  table: Table;
  fields: Field[];
  posts: Post[];
  total: number;
  page: number;
  limit: number;
}

/** gallery / multiple-file item. */
export interface FileItem {
  src: string;
  caption: string;
}

export const DEFAULT_TABLE_META: TableMeta = {
  plural: '',
  singular: '',
  hasSingular: true,
  includeDate: true,
  includeTitle: true,
  orderField: 'created_at',
  orderDir: 'desc',
  orderField2: null,
  orderDir2: null,
};

/** Records per page on the records list (server-side paging). */
export const RECORDS_PAGE_SIZE = 100;
/** Long text cells are cut to this many characters, then an ellipsis. */
export const EXCERPT_LENGTH = 60;
