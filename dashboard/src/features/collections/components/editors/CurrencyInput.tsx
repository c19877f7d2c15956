import {
  DEFAULT_CURRENCY_FORMAT,
  DEFAULT_CURRENCY_SYMBOL,
  formatCurrency,
  parseCents,
  type CurrencyFormatName,
} from '@/lib/currency';

interface CurrencyInputProps {
  id: string;
  cents: number | null;
  onChange: (cents: number | null) => void;
  symbol?: string | undefined;
  format?: CurrencyFormatName | undefined;
}

/** Typing digits fills cents from the right ("12345" → "R$ 123,45"); the field shows the formatted value. */
export function CurrencyInput({ id, cents, onChange, symbol, format }: CurrencyInputProps) {
  return (
    <input
      id={id}
      inputMode="numeric"
      value={
        cents === null
          ? ''
          : formatCurrency(cents, symbol ?? DEFAULT_CURRENCY_SYMBOL, format ?? DEFAULT_CURRENCY_FORMAT)
      }
      placeholder={formatCurrency(0, symbol ?? DEFAULT_CURRENCY_SYMBOL, format ?? DEFAULT_CURRENCY_FORMAT)}
      onChange={(event) => onChange(parseCents(event.target.value))}
      data-testid={id}
    />
  );
}
