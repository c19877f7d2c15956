import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { FilePicker } from '@/components/FilePicker';
import { FormField, type FieldControlProps } from '@/components/FormField';
import { errorText } from '@/lib/forms';

/** What every registered control takes: its label, id, react-hook-form binding and error. */
interface ControlFieldProps {
  label: ReactNode;
  /** The control's id; also its test id unless `testId` says otherwise. */
  id: string;
  testId?: string;
  /** `form.register(name)` (or `bind(name).field` from `useZodForm`). */
  field: UseFormRegisterReturn;
  /** `formState.errors.<name>`: shown at the field and linked with aria-describedby. */
  error: FieldError | undefined;
  description?: ReactNode;
  required?: boolean;
  /** A class of the field's wrapper (the control takes `className`). */
  fieldClassName?: string;
}

type Wiring = FieldControlProps & UseFormRegisterReturn & { 'data-testid': string };

/** The field around a control: label, error and description, and the wiring to spread on it. */
function ControlField({
  label,
  id,
  testId,
  field,
  error,
  description,
  required,
  fieldClassName,
  render,
}: ControlFieldProps & { render: (wiring: Wiring) => ReactNode }) {
  const { t } = useTranslation();
  return (
    <FormField
      label={label}
      id={id}
      error={errorText(t, error)}
      description={description}
      required={required}
      className={fieldClassName}
    >
      {(control) => render({ ...control, ...field, 'data-testid': testId ?? id })}
    </FormField>
  );
}

/** Splits a control's props into the field's and the element's own. */
function split<P extends ControlFieldProps>(props: P) {
  const { label, id, testId, field, error, description, required, fieldClassName, ...own } = props;
  return [{ label, id, testId, field, error, description, required, fieldClassName }, own] as const;
}

type Own<E> = Omit<E, keyof ControlFieldProps | 'name'>;

/** A labelled `<input>` bound to a react-hook-form field, its error under it. */
export function InputField(props: ControlFieldProps & Own<InputHTMLAttributes<HTMLInputElement>>) {
  const [outer, input] = split(props);
  return <ControlField {...outer} render={(wiring) => <input {...input} {...wiring} />} />;
}

/** A labelled file input bound to a react-hook-form field: the kit's `FilePicker`, never the browser's control. */
export function FileField(props: ControlFieldProps & Own<InputHTMLAttributes<HTMLInputElement>>) {
  const [outer, input] = split(props);
  return <ControlField {...outer} render={(wiring) => <FilePicker {...input} {...wiring} />} />;
}

/** An order (a whole number from 0) in a number input. */
export function OrderField(props: Omit<Parameters<typeof InputField>[0], 'type' | 'min'>) {
  return <InputField {...props} type="number" min={0} inputMode="numeric" />;
}

/** A labelled `<textarea>` bound to a react-hook-form field. */
export function TextAreaField(props: ControlFieldProps & Own<TextareaHTMLAttributes<HTMLTextAreaElement>>) {
  const [outer, textarea] = split(props);
  return <ControlField {...outer} render={(wiring) => <textarea {...textarea} {...wiring} />} />;
}

/** A `TextAreaField` for code, shown in the monospace font: HTML, CSS, JS, an SVG icon, an export. */
export function CodeField(props: Omit<Parameters<typeof TextAreaField>[0], 'className'>) {
  return <TextAreaField {...props} className="code-input" />;
}

/** A labelled `<select>` bound to a react-hook-form field; the options are its children. */
export function SelectField(props: ControlFieldProps & Own<SelectHTMLAttributes<HTMLSelectElement>>) {
  const [outer, select] = split(props);
  return <ControlField {...outer} render={(wiring) => <select {...select} {...wiring} />} />;
}

interface CheckboxFieldProps {
  label: ReactNode;
  field: UseFormRegisterReturn;
  testId: string;
}

/** A checkbox bound to a react-hook-form boolean, its label beside it. */
export function CheckboxField({ label, field, testId }: CheckboxFieldProps) {
  return (
    <label className="checkbox">
      <input type="checkbox" {...field} data-testid={testId} /> {label}
    </label>
  );
}

interface CheckboxProps {
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  testId?: string;
}

/** A checkbox whose state the screen holds (an editor's flag, a link's option), its label beside it. */
export function Checkbox({ label, checked, onChange, testId }: CheckboxProps) {
  return (
    <label className="checkbox">
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        data-testid={testId}
      />
      {label}
    </label>
  );
}

/** A form's checkboxes side by side, in the order given. */
export function CheckboxRow({ boxes }: { boxes: CheckboxFieldProps[] }) {
  return (
    <div className="checkbox-row">
      {boxes.map((box) => (
        <CheckboxField key={box.testId} {...box} />
      ))}
    </div>
  );
}
