import type { Ref } from 'react';
import { Radio, RadioGroup as AriaRadioGroup } from 'react-aria-components';
import { type ChoiceFieldProps, FieldHelp, FieldLabel, fieldClass } from './field-parts';

export interface RadioOption {
  id: string;
  label: string;
  isDisabled?: boolean;
  testId?: string;
}

export interface RadioGroupProps extends ChoiceFieldProps {
  options: RadioOption[];
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
 * react-hook-form form its `inputRef` comes from the `Controller`'s `field` too.
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
      className={fieldClass(error)}
      value={value}
      onChange={onChange}
      onBlur={onBlur}
      isDisabled={isDisabled}
      isInvalid={Boolean(error)}
      validationBehavior="aria"
      data-testid={testId}
    >
      <FieldLabel label={label} required={required} />
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
      <FieldHelp description={description} error={error} />
    </AriaRadioGroup>
  );
}
