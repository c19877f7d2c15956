import { useFieldArray, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CheckboxRow, InputField, SelectField } from '@/components/FormControls';
import { FormDialog } from '@/components/FormDialog';
import { FormField } from '@/components/FormField';
import { formatCurrency } from '@/lib/currency';
import { errorAt, errorText, useZodForm } from '@/lib/forms';
import { NameSlugFields } from '@/components/NameSlugFields';
import type { TableSummary } from '@/lib/types';
import { useCreateField } from '@/features/collections/api/create-field';
import { useUpdateField } from '@/features/collections/api/update-field';
import {
  fieldFormSchema,
  fieldFormValues,
  hasOptions,
  type FieldBody,
} from '@/features/collections/lib/schemas';
import { CURRENCY_FORMATS, FIELD_TYPES, type Field } from '@/features/collections/types';
import { UploadButton } from './UploadButton';
import { ActionButton } from '@/components/ActionButton';

interface FieldModalProps {
  tableId: number;
  /** The field to edit; a new field when undefined. */
  field: Field | undefined;
  /** Relation targets: the project's other collections. */
  otherTables: TableSummary[];
  uploadPrefix: (string | number)[];
  /** Closes the modal: its Cancel, and after `onSaved`. */
  onClose: () => void;
  onSaved: (field: Field) => void;
}

/** Server fields named otherwise in the form. */
const SERVER_FIELDS = { 'meta.table': 'table', 'meta.format': 'format' } as const;

/** Add or edit one field: name, slug, type and the settings of that type. */
export function FieldModal({ tableId, field, otherTables, uploadPrefix, onClose, onSaved }: FieldModalProps) {
  const { t } = useTranslation();
  const create = useCreateField();
  const update = useUpdateField();
  const { form, bind, saveWith } = useZodForm(fieldFormSchema, {
    defaultValues: fieldFormValues(field),
    serverFields: ['name', 'slug', 'type', 'options', 'table', 'delimiter', 'symbol', 'format'],
    serverFieldMap: SERVER_FIELDS,
  });
  const options = useFieldArray({ control: form.control, name: 'options' });
  const [type, symbol, optionValues] = useWatch({
    control: form.control,
    name: ['type', 'symbol', 'options'],
  });
  const { errors } = form.formState;

  const dialog = field
    ? saveWith(update, (body: FieldBody) => ({ id: field.id, table_id: tableId, ...body }), onClose, {
        onSuccess: onSaved,
      })
    : saveWith(create, (body: FieldBody) => ({ table_id: tableId, ...body }), onClose, {
        onSuccess: onSaved,
      });

  const optionsError = errorText(t, errors.options?.root ?? errorAt(errors, 'options'));

  return (
    <FormDialog
      title={field ? t('collections.fields.modalEdit') : t('collections.fields.modalNew')}
      testId="field-modal"
      form={dialog}
      saveTestId="field-save"
      failureTestId="field-error"
    >
      <NameSlugFields
        form={form}
        id="field"
        labels={{ name: t('collections.fields.name'), slug: t('collections.fields.slug') }}
        fill="leaving"
        autoFocus
      />
      <SelectField label={t('collections.fields.type')} id="field-type" required {...bind('type')}>
        <option value="">{t('collections.fields.chooseType')}</option>
        {FIELD_TYPES.map((fieldType) => (
          <option key={fieldType} value={fieldType}>
            {t(`collections.types.${fieldType}`)}
          </option>
        ))}
      </SelectField>
      <CheckboxRow
        boxes={[
          {
            label: t('collections.fields.required'),
            field: form.register('required'),
            testId: 'field-required',
          },
          {
            label: t('collections.fields.hideAtListing'),
            field: form.register('hideAtListing'),
            testId: 'field-hide-at-listing',
          },
        ]}
      />

      {type === 'relation' && (
        <SelectField
          label={t('collections.fields.relationTable')}
          id="field-relation"
          required
          {...bind('table')}
        >
          <option value="">{t('collections.fields.chooseTable')}</option>
          {otherTables.map((table) => (
            <option key={table.id} value={table.id}>
              {table.name}
            </option>
          ))}
        </SelectField>
      )}

      {type === 'csvtable' && (
        <InputField
          label={t('collections.fields.delimiter')}
          id="field-delimiter"
          maxLength={3}
          {...bind('delimiter')}
        />
      )}

      {type === 'currency' && (
        <div className="two-columns">
          <InputField label={t('collections.fields.symbol')} id="field-symbol" {...bind('symbol')} />
          <SelectField label={t('collections.fields.format')} id="field-format" {...bind('format')}>
            {CURRENCY_FORMATS.map((format) => (
              <option key={format} value={format}>
                {format} — {formatCurrency(123456, symbol, format)}
              </option>
            ))}
          </SelectField>
        </div>
      )}

      {hasOptions(type) && (
        <FormField
          label={t('collections.fields.options')}
          id="field-options"
          labelAs="text"
          error={optionsError}
          testId="field-options"
        >
          {(control) => (
            <div
              className="options-editor"
              role="group"
              aria-labelledby={`${control.id}-label`}
              aria-describedby={control['aria-describedby']}
              id={control.id}
              tabIndex={-1}
            >
              {options.fields.map((option, index) => (
                <div key={option.id} className="option-row" data-testid="field-option">
                  <input
                    aria-label={t('collections.fields.optionName')}
                    placeholder={t('collections.fields.optionName')}
                    {...form.register(`options.${index}.name`)}
                    data-testid="field-option-name"
                  />
                  {type === 'image-select' && (
                    <>
                      {optionValues[index]?.image && (
                        <img src={optionValues[index].image} alt="" className="option-thumb" />
                      )}
                      <UploadButton
                        imagesOnly
                        prefix={uploadPrefix}
                        label={t('collections.fields.optionImage')}
                        onUploaded={(url) => form.setValue(`options.${index}.image`, url)}
                        testId="field-option-image"
                      />
                    </>
                  )}
                  <ActionButton
                    size="small"
                    variant="danger-ghost"
                    onClick={() => options.remove(index)}
                    aria-label={t('common.remove')}
                  >
                    ×
                  </ActionButton>
                </div>
              ))}
              <ActionButton
                size="small"
                onClick={() => options.append({ name: '', image: '' })}
                testId="field-option-add"
              >
                + {t('collections.fields.addOption')}
              </ActionButton>
            </div>
          )}
        </FormField>
      )}
    </FormDialog>
  );
}
