import { describe, expect, it } from 'vitest';
import { formatMoney } from './money';
import { addMonths, dayOf, formatDay, monthOf } from './months';

describe('formatMoney', () => {
  it('formats BRL minor units with comma decimals', () => {
    expect(formatMoney(3000, 'BRL')).toBe('R$ 30,00');
    expect(formatMoney(37000, 'BRL')).toBe('R$ 370,00');
    expect(formatMoney(123456, 'BRL')).toBe('R$ 1.234,56');
    expect(formatMoney(-550, 'BRL')).toBe('-R$ 5,50');
  });

  it('formats USD, dropping the cents of whole dollars', () => {
    expect(formatMoney(700, 'USD')).toBe('$7');
    expect(formatMoney(7000, 'USD')).toBe('$70');
    expect(formatMoney(1250, 'USD')).toBe('$12.50');
    expect(formatMoney(-500, 'USD')).toBe('-$5');
  });
});

describe('months', () => {
  it('steps across years', () => {
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(addMonths('2025-12', 1)).toBe('2026-01');
    expect(addMonths('2026-03', -14)).toBe('2025-01');
  });

  it('reads the local month of a date and formats days', () => {
    expect(monthOf(new Date(2026, 2, 31, 23, 59))).toBe('2026-03');
    expect(formatDay('2026-03-05')).toBe('05/03/2026');
    expect(dayOf('2026-03-05')).toBe('05');
  });
});
