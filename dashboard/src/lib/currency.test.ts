import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CURRENCY_FORMATS, formatCurrency, parseCents, toCents, type CurrencyFormatName } from './currency';

// The vectors the Rust side runs too (shared/src/fields/currency_vectors.rs); `read`, how the
// server reads amounts in imported files, is the server's alone.
const vectorsPath = fileURLToPath(new URL('../../../shared/testdata/currency.json', import.meta.url));
const vectors = JSON.parse(readFileSync(vectorsPath, 'utf8')) as {
  formats: string[];
  format: [number, string, CurrencyFormatName, string][];
  typed: [string, number | null][];
};

describe('the shared currency vectors', () => {
  it('list the four formats', () => {
    expect(vectors.formats).toEqual([...CURRENCY_FORMATS]);
  });

  it.each(vectors.format)('writes %i with %j in %j as %j', (cents, symbol, format, text) => {
    expect(formatCurrency(cents, symbol, format)).toBe(text);
  });

  it.each(vectors.typed)('reads typed %j as %j cents', (text, cents) => {
    expect(parseCents(text)).toBe(cents);
  });
});

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
