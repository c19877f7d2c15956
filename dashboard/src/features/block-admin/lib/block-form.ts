/**
 * The block and category forms of the admin screen: values ↔ payloads, and the checks the server
 * makes (control-plane/src/routes/blocks.rs: names trimmed and required, at most 200 / 100
 * characters; orders 0–1,000,000, 99 when absent). The template may be empty, as on the server.
 */
import type {
  BlockPayload,
  CategoryPayload,
  LibraryBlock,
  LibraryCategory,
} from '@/features/block-admin/types';

export const DEFAULT_BLOCK_ORDER = 99;
export const MAX_ORDER = 1_000_000;
const MAX_BLOCK_NAME = 200;
const MAX_CATEGORY_NAME = 100;

export interface BlockFormValues {
  name: string;
  categoryId: string;
  keywords: string;
  image: string;
  template: string;
  css: string;
  js: string;
  order: string;
}

export interface CategoryFormValues {
  name: string;
  icon: string;
  order: string;
}

export type BlockFormError = 'nameRequired' | 'nameTooLong' | 'categoryRequired' | 'orderInvalid';
export type CategoryFormError = 'nameRequired' | 'nameTooLong' | 'orderInvalid';

export function blockFormValues(
  block: LibraryBlock | null,
  defaultCategoryId: number | null,
): BlockFormValues {
  return {
    name: block?.name ?? '',
    categoryId: String(block?.category_id ?? defaultCategoryId ?? ''),
    keywords: block?.keywords ?? '',
    image: block?.image ?? '',
    template: block?.template ?? '',
    css: block?.css ?? '',
    js: block?.js ?? '',
    order: String(block?.order ?? DEFAULT_BLOCK_ORDER),
  };
}

export function categoryFormValues(category: LibraryCategory | null): CategoryFormValues {
  return {
    name: category?.name ?? '',
    icon: category?.icon ?? '',
    order: String(category?.order ?? DEFAULT_BLOCK_ORDER),
  };
}

/** An order field: a whole number from 0 to MAX_ORDER; empty means "not given". */
export function parseOrder(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (!/^\d+$/.test(trimmed)) return null;
  const order = Number(trimmed);
  return order <= MAX_ORDER ? order : null;
}

export function blockPayload(values: BlockFormValues): { payload: BlockPayload } | { error: BlockFormError } {
  const name = values.name.trim();
  if (!name) return { error: 'nameRequired' };
  if ([...name].length > MAX_BLOCK_NAME) return { error: 'nameTooLong' };
  const categoryId = Number(values.categoryId);
  if (!values.categoryId || !Number.isInteger(categoryId) || categoryId < 1)
    return { error: 'categoryRequired' };
  const order = parseOrder(values.order);
  if (order === null) return { error: 'orderInvalid' };
  return {
    payload: {
      name,
      category_id: categoryId,
      image: values.image.trim(),
      keywords: values.keywords.trim(),
      template: values.template,
      css: values.css,
      js: values.js,
      order: order ?? DEFAULT_BLOCK_ORDER,
    },
  };
}

export function categoryPayload(
  values: CategoryFormValues,
): { payload: CategoryPayload } | { error: CategoryFormError } {
  const name = values.name.trim();
  if (!name) return { error: 'nameRequired' };
  if ([...name].length > MAX_CATEGORY_NAME) return { error: 'nameTooLong' };
  const order = parseOrder(values.order);
  if (order === null) return { error: 'orderInvalid' };
  const payload: CategoryPayload = { name, icon: values.icon, order: order ?? DEFAULT_BLOCK_ORDER };
  return { payload };
}

/** Export text as pretty JSON, and the data: URL that downloads it. */
export function exportText(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

export function jsonDownloadHref(text: string): string {
  return `data:application/json;charset=utf-8,${encodeURIComponent(text)}`;
}

/** An icon's SVG text as an image source: shown in <img>, so any script in it never runs. */
export function svgImageSrc(svg: string): string | null {
  return svg.trim() ? `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` : null;
}
