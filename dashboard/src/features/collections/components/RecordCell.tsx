import { useTranslation } from 'react-i18next';
import { DEFAULT_CURRENCY_FORMAT, DEFAULT_CURRENCY_SYMBOL, formatCurrency, toCents } from '@/lib/currency';
import { excerpt, stripTags } from '@/features/collections/lib/excerpt';
import { toFormValue } from '@/features/collections/lib/record-form';
import type { Field, FileItem } from '@/features/collections/types';

interface RecordCellProps {
  field: Field;
  value: unknown;
  /** Names of the relation target's records, by id (first page of the target). */
  relationNames: Map<number, string> | undefined;
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return '';
}

/** One cell of the records list: text cut to 60 characters, images as thumbnails, and so on. */
export function RecordCell({ field, value, relationNames }: RecordCellProps) {
  const { t } = useTranslation();
  switch (field.type) {
    case 'image': {
      const src = text(value);
      return src ? <img src={src} alt="" className="cell-thumb" loading="lazy" /> : null;
    }
    case 'gallery': {
      const items = toFormValue('gallery', value) as FileItem[];
      const first = items[0];
      return first ? (
        <span className="cell-gallery">
          <img src={first.src} alt={first.caption} className="cell-thumb" loading="lazy" />
          {items.length > 1 && <span className="muted">+{items.length - 1}</span>}
        </span>
      ) : null;
    }
    case 'file': {
      const src = text(value);
      return src ? (
        <a href={src} target="_blank" rel="noreferrer">
          {excerpt(decodeURIComponent(src.split('/').pop() ?? src))}
        </a>
      ) : null;
    }
    case 'multiple-file': {
      const items = toFormValue('multiple-file', value) as FileItem[];
      return items.length > 0 ? <span>{t('records.files', { count: items.length })}</span> : null;
    }
    case 'checkbox':
      return toFormValue('checkbox', value) === true ? (
        <span className="cell-check" aria-label={t('records.yes')}>
          ✓
        </span>
      ) : (
        <span className="muted" aria-label={t('records.no')}>
          —
        </span>
      );
    case 'currency': {
      const cents = toCents(value);
      return cents === null ? null : (
        <span className="nowrap">
          {formatCurrency(
            cents,
            field.meta.symbol ?? DEFAULT_CURRENCY_SYMBOL,
            field.meta.format ?? DEFAULT_CURRENCY_FORMAT,
          )}
        </span>
      );
    }
    case 'relation': {
      const id = toFormValue('relation', value);
      if (typeof id !== 'number') return null;
      return <span>{relationNames?.get(id) ?? `#${id}`}</span>;
    }
    case 'multiselect':
      return <span>{excerpt((toFormValue('multiselect', value) as string[]).join(', '))}</span>;
    case 'wysiwyg':
      return <span>{excerpt(stripTags(text(value)))}</span>;
    case 'whatsapp_link':
    case 'telephone_link':
    case 'email_link':
      return <span>{excerpt(text(toFormValue(field.type, value)))}</span>;
    default:
      return <span>{excerpt(text(value))}</span>;
  }
}
