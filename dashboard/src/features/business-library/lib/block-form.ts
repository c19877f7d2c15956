/**
 * The business admin's block form (name, keywords, thumbnail, order), checked as the server
 * checks it (`routes/business_library.rs`): a name, and an order from 0 to 1000000. The code
 * itself is edited in the editor's code window.
 */
import type { BusinessBlock, SaveBusinessBlockInput } from '@/lib/business-blocks/types';

export interface BlockFormValues {
  name: string;
  keywords: string;
  image: string;
  order: string;
}

export type BlockFormError = 'nameRequired' | 'orderInvalid';

export const MAX_ORDER = 1_000_000;

export function blockFormValues(block: BusinessBlock): BlockFormValues {
  return { name: block.name, keywords: block.keywords, image: block.image, order: String(block.order) };
}

/** The body of `POST /api/business/blocks/{id}`, or the first problem. */
export function blockPayload(
  values: BlockFormValues,
): { payload: SaveBusinessBlockInput } | { error: BlockFormError } {
  const name = values.name.trim();
  if (!name) return { error: 'nameRequired' };
  const order = Number(values.order.trim());
  if (values.order.trim() === '' || !Number.isInteger(order) || order < 0 || order > MAX_ORDER)
    return { error: 'orderInvalid' };
  return { payload: { name, keywords: values.keywords.trim(), image: values.image.trim(), order } };
}
