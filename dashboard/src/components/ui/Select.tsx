import type { Key, Ref } from 'react';
import {
  Button,
  FieldError,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Select as AriaSelect,
  SelectValue,
  Text,
} from 'react-aria-components';

export interface Option {
  id: string;
  label: string;
}

export interface SelectProps {
  label: string;
  options: Option[];
  value: string | null;
  onChange: (value: string) => void;
  /** Called when the list button loses focus (react-hook-form's `field.onBlur`). */
  onBlur?: () => void;
  placeholder?: string;
  testId?: string;
  isDisabled?: boolean;
  /** Marks the label with an asterisk; the form's schema does the checking. */
  required?: boolean;
  /** Help under the list button. */
  description?: string;
  /**
   * The translated error, shown under the list button: the field is marked invalid
   * (`data-invalid`, which `Form` looks for) and the button's `aria-describedby` names the error.
   * The button itself takes no `aria-invalid`: ARIA does not support it on a button (jsx-a11y's
   * role-supports-aria-props), and React Aria leaves it off for that reason.
   */
  error?: string;
  /** The list button, which takes the focus (react-hook-form's `field.ref` from a `Controller`). */
  buttonRef?: Ref<HTMLButtonElement>;
}

/**
 * A labelled single-choice list on React Aria's `Select` (WAI-ARIA listbox in a popover; typing
 * selects, arrow keys move). For a long list that people search, use `ComboBox`. In a
 * react-hook-form form it binds through `Controller`: `value`, `onChange`, `onBlur`,
 * `buttonRef` from its `field`, `error` from `errorText(t, fieldState.error)`.
 */
export function Select({
  label,
  options,
  value,
  onChange,
  onBlur,
  placeholder,
  testId,
  isDisabled,
  required = false,
  description,
  error,
  buttonRef,
}: SelectProps) {
  return (
    <AriaSelect
      className={['field', 'select', error ? 'field-invalid' : ''].filter(Boolean).join(' ')}
      selectedKey={value}
      onSelectionChange={(key: Key | null) => key != null && onChange(String(key))}
      onBlur={onBlur}
      placeholder={placeholder}
      isDisabled={isDisabled}
      isInvalid={Boolean(error)}
      validationBehavior="aria"
      data-testid={testId}
    >
      <Label>
        {label}
        {required && ' *'}
      </Label>
      <Button className="input select-button" ref={buttonRef}>
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </Button>
      {description && (
        <Text slot="description" className="field-hint">
          {description}
        </Text>
      )}
      {/* Announced when it appears, as the errors of `FormField` are. */}
      <FieldError className="field-error">
        <span role="alert">{error}</span>
      </FieldError>
      <Popover className="popover">
        <ListBox className="listbox">
          {options.map((option) => (
            <ListBoxItem key={option.id} id={option.id} className="listbox-item">
              {option.label}
            </ListBoxItem>
          ))}
        </ListBox>
      </Popover>
    </AriaSelect>
  );
}
