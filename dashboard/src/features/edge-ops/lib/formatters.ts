/**
 * Numbers and instants in the interface's language (pt-BR "123.456", "98,1%"; en "123,456",
 * "98.1%"). Built once per language: Intl formatters are costly to create and the screen
 * redraws every 5 s.
 */
export interface FigureFormatters {
  /** Whole counts: requests, errors, certificates, seconds. */
  count(value: number): string;
  /** Latencies: up to one decimal. */
  decimal(value: number): string;
  /** A 0–1 ratio as a percentage with up to `digits` decimals. */
  percent(ratio: number, digits: 1 | 2): string;
  /** Date and time of an ISO instant, in the browser's time zone. */
  dateTime(iso: string): string;
  /** Time of day of an ISO instant. */
  time(iso: string): string;
}

export function figureFormatters(locale: string): FigureFormatters {
  const count = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  const decimal = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  const percent = {
    1: new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }),
    2: new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }),
  };
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'medium' });
  const time = new Intl.DateTimeFormat(locale, { timeStyle: 'medium' });
  const instant = (format: Intl.DateTimeFormat, iso: string) => {
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? iso : format.format(date);
  };
  return {
    count: (value) => count.format(value),
    decimal: (value) => decimal.format(value),
    percent: (ratio, digits) => percent[digits].format(ratio),
    dateTime: (iso) => instant(dateTime, iso),
    time: (iso) => instant(time, iso),
  };
}
