import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/Alert';
import { FormField } from '@/components/FormField';
import { Dialog } from '@/components/ui/Dialog';
import { errorMessage } from '@/lib/api-client';
import { DEFAULT_CURRENCY_FORMAT, DEFAULT_CURRENCY_SYMBOL, formatCurrency } from '@/lib/currency';
import type { TableSummary } from '@/lib/types';
import { fieldErrors, slugify } from '@/lib/validation';
import { useCreateField } from '@/features/collections/api/create-field';
import { useUpdateField } from '@/features/collections/api/update-field';
import { DEFAULT_DELIMITER } from '@/features/collections/lib/csv-table';
import { fieldFormSchema, hasOptions } from '@/features/collections/lib/schemas';
import {
  CURRENCY_FORMATS,
  FIELD_TYPES,
  type Field,
  type FieldMeta,
  type FieldOption,
  type FieldType,
} from '@/features/collections/types';
import { UploadButton } from './UploadButton';

interface FieldModalProps {
  tableId: number;
  /** The field to edit; a new field when undefined. */
  field: Field | undefined;
  /** Relation targets: the project's other collections. */
  otherTables: TableSummary[];
  uploadPrefix: (string | number)[];
  onClose: () => void;
  onSaved: (field: Field) => void;
}

function isFieldType(value: string): value is FieldType {
  return (FIELD_TYPES as readonly string[]).includes(value);
}

/** Add or edit one field: name, slug, type and the settings of that type. */
export function FieldModal({ tableId, field, otherTables, uploadPrefix, onClose, onSaved }: FieldModalProps) {
  const { t } = useTranslation();
  const create = useCreateField();
  const update = useUpdateField();
  const mutation = field ? update : create;
  const [name, setName] = useState(field?.name ?? '');
  const [slug, setSlug] = useState(field?.slug ?? '');
  const [type, setType] = useState<FieldType | ''>(field?.type ?? '');
  const [required, setRequired] = useState(field?.required === '1');
  const [options, setOptions] = useState<FieldOption[]>(field?.options ?? []);
  const [meta, setMeta] = useState<FieldMeta>(field?.meta ?? {});
  const [errors, setErrors] = useState<Record<string, string>>({});

  const setOption = (index: number, patch: Partial<FieldOption>) =>
    setOptions((current) => current.map((option, i) => (i === index ? { ...option, ...patch } : option)));

  /** Only the settings of the chosen type are sent. */
  const metaFor = (fieldType: FieldType | ''): FieldMeta => {
    const out: FieldMeta = {};
    if (meta.hideAtListing) out.hideAtListing = true;
    if (fieldType === 'relation' && meta.table !== undefined) out.table = meta.table;
    if (fieldType === 'csvtable') out.delimiter = meta.delimiter || DEFAULT_DELIMITER;
    if (fieldType === 'currency') {
      out.symbol = meta.symbol ?? DEFAULT_CURRENCY_SYMBOL;
      out.format = meta.format ?? DEFAULT_CURRENCY_FORMAT;
    }
    return out;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const keptOptions = hasOptions(type)
      ? options
          .map((option) => ({
            name: option.name.trim(),
            ...(type === 'image-select' && option.image ? { image: option.image } : {}),
          }))
          .filter((option) => option.name !== '')
      : [];
    const parsed = fieldFormSchema.safeParse({
      name,
      slug,
      type,
      required: required ? '1' : '0',
      options: keptOptions,
      meta: metaFor(type),
    });
    if (!parsed.success || parsed.data.type === '') {
      setErrors(parsed.success ? {} : fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    const body = {
      table_id: tableId,
      name: parsed.data.name,
      slug: slugify(parsed.data.slug || parsed.data.name),
      type: parsed.data.type,
      required: parsed.data.required,
      options: keptOptions,
      meta: metaFor(parsed.data.type),
    };
    const handlers = { onSuccess: onSaved };
    if (field) update.mutate({ id: field.id, ...body }, handlers);
    else create.mutate(body, handlers);
  };

  const error = (key: string) => (errors[key] ? t(errors[key]) : undefined);

  return (
    <Dialog
      title={field ? t('collections.fields.modalEdit') : t('collections.fields.modalNew')}
      onClose={onClose}
      testId="field-modal"
      footer={
        <div className="form-actions">
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button
            type="submit"
            form="field-form"
            className="button button-primary"
            disabled={mutation.isPending}
            data-testid="field-save"
          >
            {t('common.save')}
          </button>
        </div>
      }
    >
      <form id="field-form" className="form" onSubmit={submit} noValidate>
        {mutation.isError && <Alert testId="field-error">{errorMessage(mutation.error)}</Alert>}
        <FormField label={t('collections.fields.name')} id="field-name" error={error('name')}>
          <input
            id="field-name"
            value={name}
            autoFocus
            onChange={(event) => setName(event.target.value)}
            onBlur={() => {
              if (slug.trim() === '') setSlug(slugify(name));
            }}
            data-testid="field-name"
          />
        </FormField>
        <FormField label={t('collections.fields.slug')} id="field-slug">
          <input
            id="field-slug"
            value={slug}
            onChange={(event) => setSlug(event.target.value)}
            onBlur={() => setSlug(slugify(slug))}
            data-testid="field-slug"
          />
        </FormField>
        <FormField label={t('collections.fields.type')} id="field-type" error={error('type')}>
          <select
            id="field-type"
            value={type}
            onChange={(event) => setType(isFieldType(event.target.value) ? event.target.value : '')}
            data-testid="field-type"
          >
            <option value="">{t('collections.fields.chooseType')}</option>
            {FIELD_TYPES.map((fieldType) => (
              <option key={fieldType} value={fieldType}>
                {t(`collections.types.${fieldType}`)}
              </option>
            ))}
          </select>
        </FormField>
        <div className="checkbox-row">
          <label className="checkbox">
            <input
              type="checkbox"
              checked={required}
              onChange={(event) => setRequired(event.target.checked)}
              data-testid="field-required"
            />
            {t('collections.fields.required')}
          </label>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={meta.hideAtListing === true}
              onChange={(event) =>
                setMeta((current) => ({ ...current, hideAtListing: event.target.checked }))
              }
              data-testid="field-hide-at-listing"
            />
            {t('collections.fields.hideAtListing')}
          </label>
        </div>

        {type === 'relation' && (
          <FormField
            label={t('collections.fields.relationTable')}
            id="field-relation"
            error={error('meta.table')}
          >
            <select
              id="field-relation"
              value={meta.table ?? ''}
              onChange={(event) => {
                const target = event.target.value ? Number(event.target.value) : undefined;
                setMeta(({ table: _previous, ...rest }) =>
                  target === undefined ? rest : { ...rest, table: target },
                );
              }}
              data-testid="field-relation"
            >
              <option value="">{t('collections.fields.chooseTable')}</option>
              {otherTables.map((table) => (
                <option key={table.id} value={table.id}>
                  {table.name}
                </option>
              ))}
            </select>
          </FormField>
        )}

        {type === 'csvtable' && (
          <FormField label={t('collections.fields.delimiter')} id="field-delimiter">
            <input
              id="field-delimiter"
              value={meta.delimiter ?? DEFAULT_DELIMITER}
              maxLength={3}
              onChange={(event) => setMeta((current) => ({ ...current, delimiter: event.target.value }))}
              data-testid="field-delimiter"
            />
          </FormField>
        )}

        {type === 'currency' && (
          <div className="two-columns">
            <FormField label={t('collections.fields.symbol')} id="field-symbol">
              <input
                id="field-symbol"
                value={meta.symbol ?? DEFAULT_CURRENCY_SYMBOL}
                onChange={(event) => setMeta((current) => ({ ...current, symbol: event.target.value }))}
                data-testid="field-symbol"
              />
            </FormField>
            <FormField label={t('collections.fields.format')} id="field-format">
              <select
                id="field-format"
                value={meta.format ?? DEFAULT_CURRENCY_FORMAT}
                onChange={(event) => {
                  const format = CURRENCY_FORMATS.find((candidate) => candidate === event.target.value);
                  if (format) setMeta((current) => ({ ...current, format }));
                }}
                data-testid="field-format"
              >
                {CURRENCY_FORMATS.map((format) => (
                  <option key={format} value={format}>
                    {format} — {formatCurrency(123456, meta.symbol ?? DEFAULT_CURRENCY_SYMBOL, format)}
                  </option>
                ))}
              </select>
            </FormField>
          </div>
        )}

        {hasOptions(type) && (
          <fieldset className="options-editor" data-testid="field-options">
            <legend>{t('collections.fields.options')}</legend>
            {options.map((option, index) => (
              <div key={index} className="option-row" data-testid="field-option">
                <input
                  aria-label={t('collections.fields.optionName')}
                  placeholder={t('collections.fields.optionName')}
                  value={option.name}
                  onChange={(event) => setOption(index, { name: event.target.value })}
                  data-testid="field-option-name"
                />
                {type === 'image-select' && (
                  <>
                    {option.image && <img src={option.image} alt="" className="option-thumb" />}
                    <UploadButton
                      imagesOnly
                      prefix={uploadPrefix}
                      label={t('collections.fields.optionImage')}
                      onUploaded={(url) => setOption(index, { image: url })}
                      testId="field-option-image"
                    />
                  </>
                )}
                <button
                  type="button"
                  className="button button-small button-danger-ghost"
                  onClick={() => setOptions((current) => current.filter((_, i) => i !== index))}
                  aria-label={t('common.remove')}
                >
                  ×
                </button>
              </div>
            ))}
            <button
              type="button"
              className="button button-small"
              onClick={() => setOptions((current) => [...current, { name: '' }])}
              data-testid="field-option-add"
            >
              + {t('collections.fields.addOption')}
            </button>
          </fieldset>
        )}
      </form>
    </Dialog>
  );
}
