/**
 * Amounts in integer minor units (cents) shown in their own currency's convention: BRL as
 * "R$ 30,00", USD as "$7" for whole dollars and "$7.50" otherwise (spec 2 §9 writes "$7", "$70").
 */
import type { Currency } from '@/lib/types';

const locales: Record<Currency, string> = { BRL: 'pt-BR', USD: 'en-US' };

export function formatMoney(minor: number, currency: Currency): string {
  const whole = minor % 100 === 0;
  const digits = currency === 'USD' && whole ? 0 : 2;
  const text = new Intl.NumberFormat(locales[currency] ?? 'pt-BR', {
    style: 'currency',
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(minor / 100);
  // Intl separates "R$" from the number with a no-break space; a plain space reads (and matches) the same.
  return text.replace(/\u00a0/g, ' ');
}
