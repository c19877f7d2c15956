/**
 * Block variables that fall back to the site identity (issue 41's contract): a definition with
 * `"identity": "<key>"` whose value is empty ("" / null / absent) renders with the identity's
 * value instead. The editor shows that value as the field's placeholder.
 */
import { SOCIAL_NETWORKS, type SiteIdentity, type SocialNetwork } from './identity';

export const IDENTITY_KEYS = [
  'name',
  'description',
  'logo',
  'whatsapp',
  'whatsapp_url',
  'phone',
  'email',
  'address',
  'hours',
  ...SOCIAL_NETWORKS,
] as const;
export type IdentityKey = (typeof IDENTITY_KEYS)[number];

export function isIdentityKey(key: unknown): key is IdentityKey {
  return typeof key === 'string' && (IDENTITY_KEYS as readonly string[]).includes(key);
}

/** A variable's value counts as empty, and so takes the identity's, as the renderer decides. */
export function isEmptyVarValue(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** What the identity gives for `key`: `whatsapp_url` is the wa.me link of the number, "" without one. */
export function identityValue(identity: SiteIdentity, key: IdentityKey): string {
  if (key === 'whatsapp_url') return identity.whatsapp ? `https://wa.me/${identity.whatsapp}` : '';
  if ((SOCIAL_NETWORKS as readonly string[]).includes(key))
    return identity.social[key as SocialNetwork] ?? '';
  return identity[key as Exclude<IdentityKey, 'whatsapp_url' | SocialNetwork>];
}
