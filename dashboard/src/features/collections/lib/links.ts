/**
 * Link fields (spec §5): WhatsApp keeps digits and gets the 55 prefix when shorter than 12
 * digits and not already starting with 55; telephone keeps digits; e-mail is trimmed. Stored
 * values carry wa.me / tel: / mailto: prefixes; the form shows them without.
 */

const WHATSAPP_PREFIX = 'https://wa.me/';

export function digitsOnly(input: string): string {
  return input.replace(/\D/g, '');
}

/** "(11) 98888-7777" → "https://wa.me/5511988887777"; "" when there are no digits. */
export function whatsappLink(input: string): string {
  let digits = digitsOnly(input);
  if (digits === '') return '';
  if (digits.length < 12 && !digits.startsWith('55')) digits = `55${digits}`;
  return `${WHATSAPP_PREFIX}${digits}`;
}

/** "+55 (11) 3333-4444" → "tel:551133334444". */
export function telephoneLink(input: string): string {
  const digits = digitsOnly(input);
  return digits === '' ? '' : `tel:${digits}`;
}

/** " ana@example.com " → "mailto:ana@example.com". */
export function emailLink(input: string): string {
  const address = input.trim().replace(/^mailto:/i, '');
  return address === '' ? '' : `mailto:${address}`;
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return '';
}

/** The editable part of a stored link value. */
export function whatsappDisplay(value: unknown): string {
  return text(value).replace(/^https?:\/\/(wa\.me|api\.whatsapp\.com\/send\?phone=)\/?/i, '');
}

export function telephoneDisplay(value: unknown): string {
  return text(value).replace(/^tel:/i, '');
}

export function emailDisplay(value: unknown): string {
  return text(value).replace(/^mailto:/i, '');
}
