import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { FormField } from '@/components/FormField';
import { errorText } from '@/lib/forms';

/** What every registered control takes: its label, id, react-hook-form binding and error. */
interface ControlFieldProps {
  label: ReactNode;
  /** The control's id; also its test id unless `testId` says otherwise. */
  id: string;
  testId?: string;
  /** `form.register(name)`. */
  field: UseFormRegisterReturn;
  /** `formState.errors.<name>`: shown at the field and linked with aria-describedby. */
  error: FieldError | undefined;
  description?: ReactNode;
  required?: boolean;
  /** A class of the field's wrapper (the control takes `className`). */
  fieldClassName?: string;
}

function useFieldError(error: FieldError | undefined): string | undefined {
  const { t } = useTranslation();
  return errorText(t, error);
}

/** A labelled `<input>` bound to a react-hook-form field, its error under it. */
export function InputField({
  label,
  id,
  testId,
  field,
  error,
  description,
  required,
  fieldClassName,
  ...input
}: ControlFieldProps & Omit<InputHTMLAttributes<HTMLInputElement>, keyof ControlFieldProps | 'name'>) {
  const message = useFieldError(error);
  return (
    <FormField
      label={label}
      id={id}
      error={message}
      description={description}
      required={required}
      className={fieldClassName}
    >
      {(control) => <input {...input} {...control} {...field} data-testid={testId ?? id} />}
    </FormField>
  );
}

/** A labelled `<textarea>` bound to a react-hook-form field. */
export function TextAreaField({
  label,
  id,
  testId,
  field,
  error,
  description,
  required,
  fieldClassName,
  ...textarea
}: ControlFieldProps & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, keyof ControlFieldProps | 'name'>) {
  const message = useFieldError(error);
  return (
    <FormField
      label={label}
      id={id}
      error={message}
      description={description}
      required={required}
      className={fieldClassName}
    >
      {(control) => <textarea {...textarea} {...control} {...field} data-testid={testId ?? id} />}
    </FormField>
  );
}

/** A labelled `<select>` bound to a react-hook-form field; the options are its children. */
export function SelectField({
  label,
  id,
  testId,
  field,
  error,
  description,
  required,
  fieldClassName,
  children,
  ...select
}: ControlFieldProps &
  Omit<SelectHTMLAttributes<HTMLSelectElement>, keyof ControlFieldProps | 'name'> & { children: ReactNode }) {
  const message = useFieldError(error);
  return (
    <FormField
      label={label}
      id={id}
      error={message}
      description={description}
      required={required}
      className={fieldClassName}
    >
      {(control) => (
        <select {...select} {...control} {...field} data-testid={testId ?? id}>
          {children}
        </select>
      )}
    </FormField>
  );
}

/** A checkbox bound to a react-hook-form boolean, its label beside it. */
export function CheckboxField({
  label,
  field,
  testId,
}: {
  label: ReactNode;
  field: UseFormRegisterReturn;
  testId: string;
}) {
  return (
    <label className="checkbox">
      <input type="checkbox" {...field} data-testid={testId} /> {label}
    </label>
  );
}
