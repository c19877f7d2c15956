/**
 * Currency fields store integer cents; the collection field chooses a symbol and one of four
 * formats (spec §3). Pure functions, shared by the record form and the records list.
 */

/** The four formats, `(symbol)` standing for the symbol (spec 1 §3; shared/testdata/currency.json). */
export const CURRENCY_FORMATS = [
  '(symbol) 9.999,99',
  '(symbol) 9,999.99',
  '9.999,99 (symbol)',
  '9,999.99 (symbol)',
] as const;
export type CurrencyFormatName = (typeof CURRENCY_FORMATS)[number];

export const DEFAULT_CURRENCY_SYMBOL = 'R$';
export const DEFAULT_CURRENCY_FORMAT: CurrencyFormatName = '(symbol) 9.999,99';

/** Digits of any text read as cents ("R$ 1.234,56" → 123456); null when there are none. */
export function parseCents(input: string): number | null {
  const digits = input.replace(/\D/g, '').replace(/^0+(?=\d)/, '');
  if (digits === '') return null;
  const cents = Number(digits);
  return Number.isSafeInteger(cents) ? cents : null;
}

/** A stored value (number or digit string) as cents; null when empty or not a number. */
export function toCents(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : null;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (/^-?\d+$/.test(trimmed)) return Number(trimmed);
    return parseCents(trimmed);
  }
  return null;
}

function groupThousands(integer: string, separator: string): string {
  return integer.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}

/** 123456, "R$" → "R$ 1.234,56" / "R$ 1,234.56" / "1.234,56 R$" / "1,234.56 R$". */
export function formatCurrency(
  cents: number,
  symbol: string = DEFAULT_CURRENCY_SYMBOL,
  format: CurrencyFormatName = DEFAULT_CURRENCY_FORMAT,
): string {
  const negative = cents < 0;
  const absolute = Math.abs(Math.trunc(cents));
  const integer = String(Math.floor(absolute / 100));
  const fraction = String(absolute % 100).padStart(2, '0');
  const dotThousands = format.includes('9.999,99');
  const number = dotThousands
    ? `${groupThousands(integer, '.')},${fraction}`
    : `${groupThousands(integer, ',')}.${fraction}`;
  const signed = negative ? `-${number}` : number;
  if (!symbol) return signed;
  return format.startsWith('(symbol)') ? `${symbol} ${signed}` : `${signed} ${symbol}`;
}
