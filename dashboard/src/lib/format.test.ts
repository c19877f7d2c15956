import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatDate,
  formatDateTime,
  formatDay,
  formatMoney,
  formatMonth,
  formatNumber,
} from './format';

describe('format (pt-BR)', () => {
  const iso = new Date(2026, 0, 5, 9, 7).toISOString();

  it('writes dates day first, in local time', () => {
    expect(formatDate(iso, 'pt-BR')).toBe('05/01/2026');
    expect(formatDateTime(iso, 'pt-BR')).toBe('05/01/2026 09:07');
    expect(formatDay('2026-03-05', 'pt-BR')).toBe('05/03/2026');
  });

  it('names months in Portuguese', () => {
    expect(formatMonth('2026-11', 'pt-BR')).toBe('novembro de 2026');
    expect(formatMonth('2026-03', 'pt-BR')).toBe('março de 2026');
  });

  it('writes money and numbers with a comma for decimals', () => {
    expect(formatMoney(4200, 'BRL', 'pt-BR')).toBe('R$ 42,00');
    expect(formatMoney(123456, 'BRL', 'pt-BR')).toBe('R$ 1.234,56');
    expect(formatMoney(-550, 'BRL', 'pt-BR')).toBe('-R$ 5,50');
    expect(formatNumber(1234.5, 'pt-BR')).toBe('1.234,5');
    expect(formatBytes(1536, 'pt-BR')).toBe('1,5 kB');
  });
});

describe('format (en)', () => {
  const iso = new Date(2026, 0, 5, 9, 7).toISOString();

  it('writes dates month first', () => {
    expect(formatDate(iso, 'en')).toBe('01/05/2026');
    expect(formatDateTime(iso, 'en')).toBe('01/05/2026 09:07 AM');
    expect(formatDay('2026-03-05', 'en')).toBe('03/05/2026');
  });

  it('names months in English', () => {
    expect(formatMonth('2026-11', 'en')).toBe('November 2026');
  });

  it('writes money and numbers with a point for decimals; whole dollars drop their cents', () => {
    expect(formatMoney(4200, 'BRL', 'en')).toBe('R$42.00');
    expect(formatMoney(700, 'USD', 'en')).toBe('$7');
    expect(formatMoney(1250, 'USD', 'en')).toBe('$12.50');
    expect(formatNumber(1234.5, 'en')).toBe('1,234.5');
    expect(formatBytes(1536, 'en')).toBe('1.5 kB');
  });
});

describe('format of what is not a date', () => {
  it('returns the input unchanged', () => {
    expect(formatDateTime('soon', 'pt-BR')).toBe('soon');
    expect(formatDay('soon', 'en')).toBe('soon');
  });
});
