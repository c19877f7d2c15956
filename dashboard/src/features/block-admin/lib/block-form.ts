/**
 * The block and category forms of the admin screen: their zod schemas, the checks the server
 * makes (control-plane/src/block_checks.rs and routes/blocks/admin.rs: names trimmed and
 * required, at most 200 / 100 characters; the block's HTML required; orders 0–1,000,000, 99 when
 * absent), which also turn the form's text into the request body.
 */
import { z } from 'zod';
import {
  blockCodeField,
  blockKeywordsField,
  blockNameField,
  blockOrderField,
  blockTemplateField,
  DEFAULT_ORDER,
  maxBytesField,
  MAX_ORDER,
  requiredTextField,
} from '@/lib/validation';
import type { LibraryBlock, LibraryCategory } from '@/lib/types';
import type { BlockPayload, CategoryPayload } from '@/features/block-admin/types';

export const DEFAULT_BLOCK_ORDER = DEFAULT_ORDER;

export const blockFormSchema = z
  .object({
    name: blockNameField,
    categoryId: z.string().regex(/^[1-9]\d*$/, 'blockAdmin.block.errors.categoryRequired'),
    keywords: blockKeywordsField,
    image: z.string().trim().pipe(maxBytesField(2048)),
    template: blockTemplateField,
    css: blockCodeField,
    js: blockCodeField,
    order: blockOrderField(DEFAULT_BLOCK_ORDER),
  })
  .transform((values): BlockPayload => ({
    name: values.name,
    category_id: Number(values.categoryId),
    image: values.image,
    keywords: values.keywords,
    template: values.template,
    css: values.css,
    js: values.js,
    order: values.order,
  }));
export type BlockFormValues = z.input<typeof blockFormSchema>;

export const categoryFormSchema = z.object({
  name: requiredTextField(
    'blockAdmin.category.errors.nameRequired',
    100,
    'blockAdmin.category.errors.nameTooLong',
  ),
  icon: maxBytesField(16 * 1024),
  order: blockOrderField(DEFAULT_BLOCK_ORDER),
}) satisfies z.ZodType<CategoryPayload, CategoryFormValues>;
export interface CategoryFormValues {
  name: string;
  icon: string;
  order: string;
}

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
