import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { RemoveButton } from '@/components/ItemButtons';
import { PageLoader } from '@/components/PageLoader';
import type { FormValue } from '@/features/collections/lib/record-form';
import type { Field, FileItem } from '@/features/collections/types';
import { UploadButton } from '@/features/collections/components/UploadButton';
import { CsvTableEditor } from './CsvTableEditor';
import { CurrencyInput } from './CurrencyInput';
import { FileListEditor } from './FileListEditor';
import { RelationPicker } from './RelationPicker';

// TipTap is the largest dependency: loaded only when a form has a rich-text field.
const RichTextEditor = lazy(() =>
  import('./RichTextEditor').then((module) => ({ default: module.RichTextEditor })),
);

interface FieldEditorProps {
  field: Field;
  value: FormValue | undefined;
  onChange: (value: FormValue) => void;
  uploadPrefix: (string | number)[];
  /** The form's error wiring (`aria-invalid`, `aria-describedby`), put on the editor's own control. */
  aria?: { 'aria-invalid'?: true | undefined; 'aria-describedby'?: string | undefined };
}

function str(value: FormValue | undefined): string {
  return typeof value === 'string' ? value : '';
}

function strings(value: FormValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function files(value: FormValue | undefined): FileItem[] {
  return Array.isArray(value)
    ? value.filter((item): item is FileItem => typeof item === 'object' && item !== null)
    : [];
}

export function fieldInputId(field: Field): string {
  return `field-${field.slug || field.id}`;
}

/** The editor of one field, chosen by its type. */
export function FieldEditor({ field, value, onChange, uploadPrefix, aria }: FieldEditorProps) {
  const { t } = useTranslation();
  const id = fieldInputId(field);
  switch (field.type) {
    case 'textarea':
      return (
        <textarea
          id={id}
          {...aria}
          rows={4}
          value={str(value)}
          onChange={(event) => onChange(event.target.value)}
          data-testid={id}
        />
      );
    case 'wysiwyg':
      return (
        <Suspense fallback={<PageLoader />}>
          <RichTextEditor id={id} value={str(value)} onChange={onChange} uploadPrefix={uploadPrefix} />
        </Suspense>
      );
    case 'image':
    case 'file': {
      const src = str(value);
      const isImage = field.type === 'image';
      return (
        <div className="single-upload" data-testid={`${id}-box`}>
          {src &&
            (isImage ? (
              <img src={src} alt="" className="file-thumb" data-testid={`${id}-preview`} />
            ) : (
              <a href={src} target="_blank" rel="noreferrer" data-testid={`${id}-preview`}>
                {decodeURIComponent(src.split('/').pop() ?? src)}
              </a>
            ))}
          <UploadButton
            imagesOnly={isImage}
            prefix={uploadPrefix}
            label={isImage ? t('records.form.uploadImage') : t('records.form.upload')}
            onUploaded={(url) => onChange(url)}
            testId={`${id}-upload`}
          />
          {src && <RemoveButton onRemove={() => onChange('')} />}
        </div>
      );
    }
    case 'gallery':
    case 'multiple-file':
      return (
        <FileListEditor
          id={id}
          images={field.type === 'gallery'}
          value={files(value)}
          onChange={onChange}
          prefix={uploadPrefix}
        />
      );
    case 'select':
      return (
        <select
          id={id}
          {...aria}
          value={str(value)}
          onChange={(event) => onChange(event.target.value)}
          data-testid={id}
        >
          <option value="">{t('records.form.none')}</option>
          {field.options.map((option) => (
            <option key={option.name} value={option.name}>
              {option.name}
            </option>
          ))}
        </select>
      );
    case 'multiselect': {
      const chosen = strings(value);
      return (
        <div className="checkbox-row" role="group" id={id} {...aria} data-testid={id}>
          {field.options.map((option) => (
            <label key={option.name} className="checkbox">
              <input
                type="checkbox"
                checked={chosen.includes(option.name)}
                onChange={(event) =>
                  onChange(
                    event.target.checked
                      ? [...chosen, option.name]
                      : chosen.filter((name) => name !== option.name),
                  )
                }
              />
              {option.name}
            </label>
          ))}
        </div>
      );
    }
    case 'checkbox':
      return (
        <label className="checkbox">
          <input
            id={id}
            {...aria}
            type="checkbox"
            checked={value === true}
            onChange={(event) => onChange(event.target.checked)}
            data-testid={id}
          />
          {field.name}
        </label>
      );
    case 'image-select': {
      const chosen = str(value);
      return (
        <div className="image-select" role="radiogroup" id={id} {...aria} data-testid={id}>
          {field.options.map((option) => (
            <label key={option.name} className={`image-option${chosen === option.name ? ' selected' : ''}`}>
              <input
                type="radio"
                className="sr-only"
                name={id}
                checked={chosen === option.name}
                onChange={() => onChange(option.name)}
              />
              {option.image ? <img src={option.image} alt="" /> : <span className="image-option-blank" />}
              <span>{option.name}</span>
            </label>
          ))}
          {chosen && <RemoveButton onRemove={() => onChange('')} />}
        </div>
      );
    }
    case 'relation':
      return (
        <RelationPicker
          id={id}
          targetTableId={field.meta.table}
          value={typeof value === 'number' ? value : null}
          onChange={onChange}
        />
      );
    case 'currency':
      return (
        <CurrencyInput
          id={id}
          cents={typeof value === 'number' ? value : null}
          onChange={onChange}
          symbol={field.meta.symbol}
          format={field.meta.format}
        />
      );
    case 'whatsapp_link':
    case 'telephone_link':
      return (
        <input
          id={id}
          {...aria}
          type="tel"
          inputMode="tel"
          value={str(value)}
          onChange={(event) => onChange(event.target.value)}
          data-testid={id}
        />
      );
    case 'email_link':
      return (
        <input
          id={id}
          {...aria}
          type="email"
          value={str(value)}
          onChange={(event) => onChange(event.target.value)}
          data-testid={id}
        />
      );
    case 'csvtable':
      return (
        <CsvTableEditor id={id} value={str(value)} onChange={onChange} delimiter={field.meta.delimiter} />
      );
    default:
      return (
        <input
          id={id}
          {...aria}
          value={str(value)}
          onChange={(event) => onChange(event.target.value)}
          data-testid={id}
        />
      );
  }
}
