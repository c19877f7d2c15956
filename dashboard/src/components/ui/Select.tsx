import type { Key } from 'react';
import {
  Button,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Select as AriaSelect,
  SelectValue,
} from 'react-aria-components';

export interface Option {
  id: string;
  label: string;
}

/**
 * A labelled single-choice list on React Aria's `Select` (WAI-ARIA listbox in a popover; typing
 * selects, arrow keys move). For a long list that people search, use `ComboBox`.
 */
export function Select({
  label,
  options,
  value,
  onChange,
  placeholder,
  testId,
  isDisabled,
}: {
  label: string;
  options: Option[];
  value: string | null;
  onChange: (value: string) => void;
  placeholder?: string;
  testId?: string;
  isDisabled?: boolean;
}) {
  return (
    <AriaSelect
      className="field select"
      selectedKey={value}
      onSelectionChange={(key: Key | null) => key != null && onChange(String(key))}
      placeholder={placeholder}
      isDisabled={isDisabled}
      data-testid={testId}
    >
      <Label>{label}</Label>
      <Button className="input select-button">
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </Button>
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
