/**
 * Every date, month, number and amount the dashboard shows, through `Intl` in the interface's
 * language (the i18next language: "pt-BR" or "en"). One place, so no screen hand-formats a date
 * or a price: pt-BR "05/01/2026", "novembro de 2026", "R$ 42,00", "1.234"; en "01/05/2026",
 * "November 2026", "R$42.00", "1,234". Money is integer minor units plus a currency code.
 *
 * Formatters are cached per language and options: building an `Intl` formatter is costly and
 * lists redraw often. Components use `useFormat()`, which follows a language switch.
 */
import { useTranslation } from 'react-i18next';

const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

function dateFormat(language: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `d|${language}|${JSON.stringify(options)}`;
  let format = cache.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(language, options);
    cache.set(key, format);
  }
  return format as Intl.DateTimeFormat;
}

function numberFormat(language: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `n|${language}|${JSON.stringify(options)}`;
  let format = cache.get(key);
  if (!format) {
    format = new Intl.NumberFormat(language, options);
    cache.set(key, format);
  }
  return format as Intl.NumberFormat;
}

// Intl separates "R$" and "kB" from the number with a no-break space: a plain space reads (and
// is matched by tests and searches) the same.
const plainSpaces = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

const DAY: Intl.DateTimeFormatOptions = { day: '2-digit', month: '2-digit', year: 'numeric' };
const TIME: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' };

function parse(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The day of an instant, in local time: "05/01/2026" (pt-BR), "01/05/2026" (en). */
export function formatDate(iso: string, language: string): string {
  const date = parse(iso);
  return date ? dateFormat(language, DAY).format(date) : iso;
}

/** Day and time of an instant, in local time: "05/01/2026 09:07" (pt-BR), "01/05/2026 09:07 AM" (en). */
export function formatDateTime(iso: string, language: string): string {
  const date = parse(iso);
  if (!date) return iso;
  return plainSpaces(`${dateFormat(language, DAY).format(date)} ${dateFormat(language, TIME).format(date)}`);
}

/** A calendar day "2026-03-05" (no time zone involved): "05/03/2026" (pt-BR), "03/05/2026" (en). */
export function formatDay(day: string, language: string): string {
  const [year, month, date] = day.split('-').map(Number);
  if (!year || !month || !date) return day;
  return dateFormat(language, DAY).format(new Date(year, month - 1, date));
}

/** A month "2026-11": "novembro de 2026" (pt-BR), "November 2026" (en). */
export function formatMonth(month: string, language: string): string {
  const [year, index] = month.split('-').map(Number);
  if (!year || !index) return month;
  return dateFormat(language, { month: 'long', year: 'numeric' }).format(new Date(year, index - 1, 1));
}

/** A count or measure: 1234.5 → "1.234,5" (pt-BR), "1,234.5" (en). */
export function formatNumber(
  value: number,
  language: string,
  options: Intl.NumberFormatOptions = {},
): string {
  return numberFormat(language, options).format(value);
}

/**
 * An amount in integer minor units of `currency`: 4200, "BRL" → "R$ 42,00" (pt-BR), "R$42.00"
 * (en). Whole US dollars drop their cents ("$7"), as the plans are priced (spec 2 §9).
 */
export function formatMoney(minor: number, currency: string, language: string): string {
  const digits = currency === 'USD' && minor % 100 === 0 ? 0 : 2;
  return plainSpaces(
    numberFormat(language, {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(minor / 100),
  );
}

const BYTE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;

/** A size in decimal units, one decimal above bytes: 1536 → "1,5 kB" (pt-BR), "1.5 kB" (en). */
export function formatBytes(bytes: number, language: string): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return plainSpaces(
    numberFormat(language, {
      style: 'unit',
      unit: BYTE_UNITS[unit],
      unitDisplay: 'short',
      maximumFractionDigits: unit === 0 ? 0 : 1,
    }).format(value),
  );
}

/** The formatters bound to the interface's current language. */
export function useFormat() {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return {
    language,
    date: (iso: string) => formatDate(iso, language),
    dateTime: (iso: string) => formatDateTime(iso, language),
    day: (day: string) => formatDay(day, language),
    month: (month: string) => formatMonth(month, language),
    number: (value: number, options?: Intl.NumberFormatOptions) => formatNumber(value, language, options),
    money: (minor: number, currency: string) => formatMoney(minor, currency, language),
    bytes: (bytes: number) => formatBytes(bytes, language),
  };
}
