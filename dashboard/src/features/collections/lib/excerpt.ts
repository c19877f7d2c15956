import { EXCERPT_LENGTH } from '@/features/collections/types';

/** Plain text of an HTML fragment (wysiwyg cells), without parsing it into the page. */
export function stripTags(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

/** Long text cells: the first 60 characters, then an ellipsis (spec §9). */
export function excerpt(text: string, length: number = EXCERPT_LENGTH): string {
  const chars = Array.from(text);
  return chars.length > length ? `${chars.slice(0, length).join('')}…` : text;
}
