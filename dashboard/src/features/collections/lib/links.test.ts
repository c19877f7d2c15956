import { describe, expect, it } from 'vitest';
import {
  emailDisplay,
  emailLink,
  telephoneDisplay,
  telephoneLink,
  whatsappDisplay,
  whatsappLink,
} from './links';

describe('whatsappLink', () => {
  it('keeps digits and prefixes 55 when short and not already Brazilian', () => {
    expect(whatsappLink('(11) 98888-7777')).toBe('https://wa.me/5511988887777');
    expect(whatsappLink('5511988887777')).toBe('https://wa.me/5511988887777');
    expect(whatsappLink('55 11 8888 7777')).toBe('https://wa.me/551188887777');
    expect(whatsappLink('+1 415 555 0100 22')).toBe('https://wa.me/1415555010022');
    expect(whatsappLink('no digits')).toBe('');
  });

  it('shows the number without the link prefix', () => {
    expect(whatsappDisplay('https://wa.me/5511988887777')).toBe('5511988887777');
    expect(whatsappDisplay(null)).toBe('');
  });
});

describe('telephone and e-mail links', () => {
  it('stores tel: with digits only', () => {
    expect(telephoneLink('+55 (11) 3333-4444')).toBe('tel:551133334444');
    expect(telephoneLink('')).toBe('');
    expect(telephoneDisplay('tel:551133334444')).toBe('551133334444');
  });

  it('stores mailto: with the trimmed address', () => {
    expect(emailLink(' ana@example.com ')).toBe('mailto:ana@example.com');
    expect(emailLink('mailto:ana@example.com')).toBe('mailto:ana@example.com');
    expect(emailLink('  ')).toBe('');
    expect(emailDisplay('mailto:ana@example.com')).toBe('ana@example.com');
  });
});
