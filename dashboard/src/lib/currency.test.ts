import { describe, expect, it } from 'vitest';
import { formatCurrency, parseCents, toCents } from './currency';

describe('formatCurrency', () => {
  it('formats cents in the four formats', () => {
    expect(formatCurrency(123456, 'R$', '(symbol) 9.999,99')).toBe('R$ 1.234,56');
    expect(formatCurrency(123456, 'R$', '(symbol) 9,999.99')).toBe('R$ 1,234.56');
    expect(formatCurrency(123456, 'R$', '9.999,99 (symbol)')).toBe('1.234,56 R$');
    expect(formatCurrency(123456, 'R$', '9,999.99 (symbol)')).toBe('1,234.56 R$');
  });

  it('defaults to R$ and the Brazilian format', () => {
    expect(formatCurrency(12345)).toBe('R$ 123,45');
  });

  it('pads small amounts and groups large ones', () => {
    expect(formatCurrency(0)).toBe('R$ 0,00');
    expect(formatCurrency(5)).toBe('R$ 0,05');
    expect(formatCurrency(100)).toBe('R$ 1,00');
    expect(formatCurrency(123456789012, '$', '(symbol) 9,999.99')).toBe('$ 1,234,567,890.12');
    expect(formatCurrency(-123456, 'US$', '9,999.99 (symbol)')).toBe('-1,234.56 US$');
  });
});

describe('parseCents / toCents', () => {
  it('reads digits as cents', () => {
    expect(parseCents('12345')).toBe(12345);
    expect(parseCents('R$ 1.234,56')).toBe(123456);
    expect(parseCents('007')).toBe(7);
    expect(parseCents('abc')).toBeNull();
  });

  it('accepts stored numbers and digit strings', () => {
    expect(toCents(12345)).toBe(12345);
    expect(toCents('12345')).toBe(12345);
    expect(toCents('')).toBeNull();
    expect(toCents(null)).toBeNull();
  });
});
