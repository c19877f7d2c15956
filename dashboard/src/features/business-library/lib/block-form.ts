/**
 * The business admin's block form (name, keywords, thumbnail, order), checked as the server
 * checks it (`routes/business_library.rs`): a name of at most 200 characters, search words of at
 * most 1000 bytes, a thumbnail that is an uploaded file or an http(s) address, and an order from
 * 0 to 1000000. The code itself is edited in the editor's code window.
 */
import { z } from 'zod';
import type { BusinessBlock, SaveBusinessBlockInput } from '@/lib/types';
import { blockKeywordsField, blockNameField, blockOrderField } from '@/lib/validation';

/** `check_image`: empty, an uploaded file or an http(s) address; 2048 bytes, no control characters. */
export function isValidBlockImage(image: string): boolean {
  const allowed =
    image === '' ||
    image.startsWith('/files/') ||
    image.startsWith('https://') ||
    image.startsWith('http://');
  // Rust's `char::is_control`: U+0000–U+001F and U+007F–U+009F.
  const control = [...image].some((char) => {
    const code = char.codePointAt(0) ?? 0;
    return code < 0x20 || (code >= 0x7f && code <= 0x9f);
  });
  return allowed && new TextEncoder().encode(image).length <= 2048 && !control;
}

export const businessBlockFormSchema = z.object({
  name: blockNameField,
  keywords: blockKeywordsField,
  image: z.string().trim().refine(isValidBlockImage, 'validation.blockImageInvalid'),
  order: blockOrderField(),
}) satisfies z.ZodType<SaveBusinessBlockInput, BlockFormValues>;

export interface BlockFormValues {
  name: string;
  keywords: string;
  image: string;
  order: string;
}

export function blockFormValues(block: BusinessBlock): BlockFormValues {
  return { name: block.name, keywords: block.keywords, image: block.image, order: String(block.order) };
}
