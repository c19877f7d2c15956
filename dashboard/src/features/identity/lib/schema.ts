/**
 * The identity and theme form, checked as the server checks (issue 41's contract): a name of 1 to
 * 100 characters, a description of at most 300, opening hours of at most 500, a WhatsApp number
 * that normalises to digits, an e-mail address, http(s) social links, `#rrggbb` colours. The
 * server decides; these checks only spare a round trip.
 */
import { z } from 'zod';
import { isValidEmail, maxCharsField, requiredTextField } from '@/lib/validation';
import { normalizeHex } from '@/lib/site/contrast';
import { SOCIAL_NETWORKS, type SiteIdentity, type SiteTheme, type SocialNetwork } from '@/lib/site/identity';

export const MAX_NAME = 100;
export const MAX_DESCRIPTION = 300;
export const MAX_HOURS = 500;
export const MAX_PHONE = 40;
export const MAX_ADDRESS = 300;
export const MAX_LINK = 500;

/**
 * The digits a WhatsApp number keeps, as the `whatsapp_link` field type reads it: a pasted
 * `https://wa.me/…` link is its number, and a Brazilian number without the country code
 * (fewer than 12 digits, not starting with 55) gets 55.
 */
export function whatsappDigits(value: string): string {
  const digits = value
    .trim()
    .replace(/^https:\/\/wa\.me\//, '')
    .replace(/\D/g, '');
  if (!digits) return '';
  return digits.length < 12 && !digits.startsWith('55') ? `55${digits}` : digits;
}

/** A WhatsApp number: 8 to 15 digits once normalised (`shared/src/identity.rs`). */
export function isValidWhatsapp(value: string): boolean {
  if (!value.trim()) return true;
  const digits = whatsappDigits(value);
  return digits.length >= 8 && digits.length <= 15;
}

/** A telephone number: at least 8 digits, and only `+ - ( ) .` and spaces besides. */
export function isValidPhone(value: string): boolean {
  const text = value.trim();
  if (!text) return true;
  return /^[0-9 +\-().]+$/.test(text) && text.replace(/\D/g, '').length >= 8;
}

export function isHttpUrl(value: string): boolean {
  if (!value.trim()) return true;
  try {
    const url = new URL(value.trim());
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const trimmed = (max: number) => z.string().trim().pipe(maxCharsField(max));
const socialLink = z
  .string()
  .trim()
  .pipe(maxCharsField(MAX_LINK))
  .refine(isHttpUrl, 'identity.validation.url');
const color = z
  .string()
  .refine((value) => normalizeHex(value) !== null, 'identity.validation.color')
  .transform((value) => normalizeHex(value) ?? value);

export const identitySchema = z.object({
  name: requiredTextField('identity.validation.nameRequired', MAX_NAME),
  description: trimmed(MAX_DESCRIPTION),
  logo: z.string(),
  whatsapp: z
    .string()
    .trim()
    .refine(isValidWhatsapp, 'identity.validation.whatsapp')
    .transform(whatsappDigits),
  phone: trimmed(MAX_PHONE).refine(isValidPhone, 'identity.validation.phone'),
  email: z
    .string()
    .trim()
    .refine((value) => value === '' || isValidEmail(value), 'validation.emailInvalid'),
  address: trimmed(MAX_ADDRESS),
  hours: z.string().trim().pipe(maxCharsField(MAX_HOURS)),
  social: z.object(
    Object.fromEntries(SOCIAL_NETWORKS.map((network) => [network, socialLink])) as Record<
      SocialNetwork,
      typeof socialLink
    >,
  ),
});

export const themeSchema = z.object({
  primary: color,
  accent: color,
  background: color,
  text: color,
  headingFont: z.string(),
  bodyFont: z.string(),
});

export const identityFormSchema = z.object({ business: identitySchema, theme: themeSchema });
export type IdentityFormInput = z.input<typeof identityFormSchema>;
export type IdentityFormOutput = { business: SiteIdentity; theme: SiteTheme };
