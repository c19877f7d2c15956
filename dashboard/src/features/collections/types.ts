/**
 * Collections (tables), their fields and records (posts): the API's types from its document, with
 * the field types, formats and settings the server accepts (it keeps a field's `meta` as JSON).
 */
import type { components } from '@/lib/api/schema';

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

import type { CurrencyFormatName } from '@/lib/currency';

export { CURRENCY_FORMATS } from '@/lib/currency';
export type CurrencyFormat = CurrencyFormatName;

export type OrderDir = 'asc' | 'desc';

type Schemas = components['schemas'];

export type TableMeta = Omit<Required<Schemas['CollectionMeta']>, 'orderDir' | 'orderDir2'> & {
  orderDir: OrderDir;
  orderDir2?: OrderDir | null;
};

export interface FieldOption {
  name: string;
  image?: string;
}

/** A field's settings by type; the document keeps them as JSON. */
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

export type Field = Omit<Schemas['FieldView'], 'type' | 'required' | 'options' | 'meta'> & {
  type: FieldType;
  required: '1' | '0';
  options: FieldOption[];
  meta: FieldMeta;
};

export type Table = Omit<Schemas['TableView'], 'meta' | 'fields'> & { meta: TableMeta; fields: Field[] };

export type { PostFieldValue, Post } from '@/lib/types';

/** One page of records: GET /api/data/{table_id}. */
export type DataPage = Omit<Schemas['DataView'], 'table' | 'fields'> & { table: Table; fields: Field[] };

/** gallery / multiple-file item (inside a record's value, which the document keeps as JSON). */
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
