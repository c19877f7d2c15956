import type { Ref } from 'react';
import { FieldError, Label, Radio, RadioGroup as AriaRadioGroup, Text } from 'react-aria-components';

export interface RadioOption {
  id: string;
  label: string;
  isDisabled?: boolean;
  testId?: string;
}

export interface RadioGroupProps {
  label: string;
  options: RadioOption[];
  value: string | null;
  onChange: (value: string) => void;
  /** Called when the focus leaves the group (react-hook-form's `field.onBlur`). */
  onBlur?: () => void;
  testId?: string;
  isDisabled?: boolean;
  /** Marks the label with an asterisk; the form's schema does the checking. */
  required?: boolean;
  /** Help under the choices. */
  description?: string;
  /**
   * The translated error, shown under the choices: the group is marked invalid (`aria-invalid`,
   * `data-invalid`) and each radio's `aria-describedby` names the error.
   */
  error?: string;
  /**
   * The radio that takes the focus (react-hook-form's `field.ref` from a `Controller`): the
   * chosen one, else the first that can be chosen, as Tab would reach it.
   */
  inputRef?: Ref<HTMLInputElement>;
}

/**
 * A labelled single choice among a few options shown at once, on React Aria's `RadioGroup`
 * (WAI-ARIA radio group: Tab reaches the chosen radio, the arrow keys move the choice). In a
 * react-hook-form form it binds through `Controller`: `value`, `onChange`, `onBlur`, `inputRef`
 * from its `field`, `error` from `errorText(t, fieldState.error)`.
 */
export function RadioGroup({
  label,
  options,
  value,
  onChange,
  onBlur,
  testId,
  isDisabled,
  required = false,
  description,
  error,
  inputRef,
}: RadioGroupProps) {
  const focusTarget =
    options.find((option) => option.id === value && !option.isDisabled) ??
    options.find((option) => !option.isDisabled);
  return (
    <AriaRadioGroup
      className={['field', error ? 'field-invalid' : ''].filter(Boolean).join(' ')}
      value={value}
      onChange={onChange}
      onBlur={onBlur}
      isDisabled={isDisabled}
      isInvalid={Boolean(error)}
      validationBehavior="aria"
      data-testid={testId}
    >
      <Label>
        {label}
        {required && ' *'}
      </Label>
      {options.map((option) => (
        <Radio
          key={option.id}
          value={option.id}
          className="radio"
          isDisabled={option.isDisabled}
          inputRef={option === focusTarget ? inputRef : undefined}
          data-testid={option.testId}
        >
          {option.label}
        </Radio>
      ))}
      {description && (
        <Text slot="description" className="field-hint">
          {description}
        </Text>
      )}
      {/* Announced when it appears, as the errors of `FormField` are. */}
      <FieldError className="field-error">
        <span role="alert">{error}</span>
      </FieldError>
    </AriaRadioGroup>
  );
}
