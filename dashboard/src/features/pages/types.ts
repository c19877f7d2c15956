/**
 * Shapes of the editor's data: the API's (block libraries, rendering) from its document, and
 * a page's blocks and their variables as docs/blocks.md gives them (the document keeps them as
 * JSON).
 */

export type { BlockLibrary, BusinessBlock, MyBlock, RenderedBlock, RenderResult } from '@/lib/types';

export type VarType =
  | 'text'
  | 'textarea'
  | 'richtext'
  | 'image'
  | 'link'
  | 'color'
  | 'background'
  | 'unit'
  | 'heading'
  | 'padding'
  | 'opacity'
  | 'number'
  | 'select'
  | 'checkbox'
  | 'list'
  | 'table';

export interface ImageValue {
  src: string;
  alt: string;
}

export interface LinkValue {
  href: string;
  label: string;
  target: '_self' | '_blank';
}

export type BackgroundType = 'solid' | 'gradient' | 'image';

export interface BackgroundValue {
  type: BackgroundType;
  color: string;
  color2: string;
  angle: 90 | 180 | 45 | 135;
  image: string;
  position: string;
}

export interface UnitValue {
  value: number | null;
  unit: 'auto' | 'px' | 'em' | '%';
}

export interface PaddingValue {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export interface SelectOption {
  name: string;
  value: string;
}

export interface TableColumn {
  key: string;
  label: string;
  type: string;
}

export type FilterOperator = '=' | '!=' | '>' | '<' | '>=' | '<=' | 'like';

/** One variable definition of a block (and, for lists, of a list item). */
export interface BlockVar {
  name: string;
  type: VarType;
  label?: string;
  value?: unknown;
  options?: SelectOption[];
  min?: number;
  max?: number;
  step?: number;
  /** list: the item's sub-definitions. */
  vars?: BlockVar[];
  /** list: "manual", "db:{collection-slug}" or "api:{url}". */
  source?: string;
  sourceMap?: Record<string, string>;
  dbfilterfield?: string;
  dbfilterquery?: FilterOperator;
  dbfiltervalue?: string;
  dborderfield?: string;
  dborderdir?: 'asc' | 'desc';
  dblimit?: number;
  dboffset?: number;
  /** list sub-definition filled from a record field. */
  dbfield?: string;
  /** collection pages: bound to the post's value. */
  postfield?: string;
  /** table: the columns. */
  columns?: TableColumn[];
  /** Left empty, the value is the site identity's (`name`, `whatsapp_url`, `instagram`, …). */
  identity?: string;
}

/** A block in a page (pages.blocks). */
export interface PageBlock {
  uid: string;
  block_id?: number | null;
  myblock_id?: number | null;
  /** Inserted from the business's library. */
  business_block_id?: number | null;
  name: string;
  image?: string | null;
  template: string;
  css: string;
  js: string;
  vars: BlockVar[];
  effect?: string;
}

/** Where a block in the left panel comes from. */
export type BlockSource = 'library' | 'my' | 'business';

/** A function of the value as it is when the change lands (see ValueChange). */
export type ValueUpdater = (previous: unknown) => unknown;

/**
 * A new value, or a ValueUpdater: what an upload that finishes later uses, so edits made meanwhile
 * are kept. Values are JSON (never functions), so a function is always an updater: see applyValueChange.
 */
export type ValueChange = unknown;

/** The value after a change: the change itself, or the updater applied to the previous value. */
export function applyValueChange(change: ValueChange, previous: unknown): unknown {
  return typeof change === 'function' ? (change as ValueUpdater)(previous) : change;
}

/** A change to a variable definition, or a function of the definition as it is then. */
export type VarChange = Partial<BlockVar> | ((current: BlockVar) => Partial<BlockVar>);

export interface PageMeta {
  header?: string;
  [key: string]: unknown;
}
