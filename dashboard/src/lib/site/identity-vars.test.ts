import { describe, expect, it } from 'vitest';
import type { SiteIdentity } from './identity';
import { identityValue, isEmptyVarValue, isIdentityKey } from './identity-vars';

const identity: SiteIdentity = {
  name: 'Doces da Bruna',
  description: 'Bolos e doces',
  logo: '/files/uploads/1/7/logo.png',
  whatsapp: '5511987654321',
  phone: '+55 11 3333-4444',
  email: 'contato@docesdabruna.com.br',
  address: 'Rua das Flores, 120',
  hours: 'Seg a sex, 8h–18h',
  social: {
    instagram: 'https://instagram.com/docesdabruna',
    facebook: '',
    tiktok: '',
    youtube: '',
    linkedin: '',
    x: '',
  },
};

describe('identity variables', () => {
  it.each([
    ['name', 'Doces da Bruna'],
    ['logo', '/files/uploads/1/7/logo.png'],
    ['whatsapp', '5511987654321'],
    ['whatsapp_url', 'https://wa.me/5511987654321'],
    ['instagram', 'https://instagram.com/docesdabruna'],
    ['facebook', ''],
    ['hours', 'Seg a sex, 8h–18h'],
  ] as const)('%s reads %j', (key, value) => expect(identityValue(identity, key)).toBe(value));

  it('has no WhatsApp link without a number', () => {
    expect(identityValue({ ...identity, whatsapp: '' }, 'whatsapp_url')).toBe('');
  });

  it('knows the contract keys only', () => {
    expect(isIdentityKey('x')).toBe(true);
    expect(isIdentityKey('whatsapp_url')).toBe(true);
    expect(isIdentityKey('social')).toBe(false);
    expect(isIdentityKey(undefined)).toBe(false);
  });

  it('counts "", null and absent as empty, nothing else', () => {
    expect([undefined, null, ''].every(isEmptyVarValue)).toBe(true);
    expect([' ', 0, false, { src: '' }].some(isEmptyVarValue)).toBe(false);
  });
});
