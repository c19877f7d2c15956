import { describe, expect, it } from 'vitest';
import { isHttpUrl, isValidPhone, isValidWhatsapp, whatsappDigits } from './schema';

describe('identity checks (as shared/src/identity.rs)', () => {
  it.each([
    ['(11) 98765-4321', '5511987654321'],
    ['https://wa.me/5511987654321', '5511987654321'],
    ['+55 11 98765-4321', '5511987654321'],
    ['351 912 345 678', '351912345678'],
    ['', ''],
  ])('WhatsApp %j is %j', (typed, digits) => expect(whatsappDigits(typed)).toBe(digits));

  it.each([
    ['', true],
    ['(11) 98765-4321', true],
    ['1234', false],
    ['abc', false],
    ['1234567890123456', false],
  ])('WhatsApp %j valid: %s', (typed, valid) => expect(isValidWhatsapp(typed)).toBe(valid));

  it.each([
    ['', true],
    ['+55 (11) 3333-4444', true],
    ['3333.4444', true],
    ['1234', false],
    ['ramal 3333-4444', false],
  ])('telephone %j valid: %s', (typed, valid) => expect(isValidPhone(typed)).toBe(valid));

  it.each([
    ['', true],
    ['https://instagram.com/docesdabruna', true],
    ['http://facebook.com/x', true],
    ['instagram.com/docesdabruna', false],
    ['javascript:alert(1)', false],
  ])('link %j valid: %s', (typed, valid) => expect(isHttpUrl(typed)).toBe(valid));
});
