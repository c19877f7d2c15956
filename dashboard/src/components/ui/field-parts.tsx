import { FieldError, Label, Text } from 'react-aria-components';

/**
 * What the kit's single choices (`Select`, `RadioGroup`) take. In a react-hook-form form they
 * bind through `Controller`: `value`, `onChange`, `onBlur` from its `field`, `error` from
 * `errorText(t, fieldState.error)`.
 */
export interface ChoiceFieldProps {
  label: string;
  value: string | null;
  onChange: (value: string) => void;
  /** Called when the focus leaves the field (react-hook-form's `field.onBlur`). */
  onBlur?: () => void;
  testId?: string;
  isDisabled?: boolean;
  /** Marks the label with an asterisk; the form's schema does the checking. */
  required?: boolean;
  /** Help under the field. */
  description?: string;
  /** The translated error, shown under the field, which is then marked invalid. */
  error?: string;
}

/** The field's classes: `field`, its own, and `field-invalid` while it shows an error. */
export function fieldClass(error: string | undefined, ...own: string[]): string {
  return ['field', ...own, error ? 'field-invalid' : ''].filter(Boolean).join(' ');
}

/** The field's label, with an asterisk when it is required. */
export function FieldLabel({ label, required }: Pick<ChoiceFieldProps, 'label' | 'required'>) {
  return (
    <Label>
      {label}
      {required && ' *'}
    </Label>
  );
}

/** The help and the error under a field; the control's `aria-describedby` names both. */
export function FieldHelp({ description, error }: Pick<ChoiceFieldProps, 'description' | 'error'>) {
  return (
    <>
      {description && (
        <Text slot="description" className="field-hint">
          {description}
        </Text>
      )}
      {/* Announced when it appears, as the errors of `FormField` are. */}
      <FieldError className="field-error">
        <span role="alert">{error}</span>
      </FieldError>
    </>
  );
}
