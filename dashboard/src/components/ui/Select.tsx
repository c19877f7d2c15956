import type { Key, Ref } from 'react';
import {
  Button,
  ListBox,
  ListBoxItem,
  Popover,
  Select as AriaSelect,
  SelectValue,
} from 'react-aria-components';
import { type ChoiceFieldProps, FieldHelp, FieldLabel, fieldClass } from './field-parts';

export interface Option {
  id: string;
  label: string;
}

export interface SelectProps extends ChoiceFieldProps {
  options: Option[];
  placeholder?: string;
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
 * react-hook-form form its `buttonRef` comes from the `Controller`'s `field` too.
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
      className={fieldClass(error, 'select')}
      selectedKey={value}
      onSelectionChange={(key: Key | null) => key != null && onChange(String(key))}
      onBlur={onBlur}
      placeholder={placeholder}
      isDisabled={isDisabled}
      isInvalid={Boolean(error)}
      validationBehavior="aria"
      data-testid={testId}
    >
      <FieldLabel label={label} required={required} />
      <Button className="input select-button" ref={buttonRef}>
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </Button>
      <FieldHelp description={description} error={error} />
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
