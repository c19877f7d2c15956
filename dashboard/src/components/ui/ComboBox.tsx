import type { Key } from 'react';
import {
  Button,
  ComboBox as AriaComboBox,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
} from 'react-aria-components';
import type { Option } from './Select';

/**
 * A labelled text field that filters a list (React Aria's `ComboBox`, the WAI-ARIA combobox
 * pattern): for choices too many to scroll through.
 */
export function ComboBox({
  label,
  options,
  value,
  onChange,
  testId,
}: {
  label: string;
  options: Option[];
  value: string | null;
  onChange: (value: string | null) => void;
  testId?: string;
}) {
  return (
    <AriaComboBox
      className="field combobox"
      selectedKey={value}
      onSelectionChange={(key: Key | null) => onChange(key == null ? null : String(key))}
      defaultItems={options}
      data-testid={testId}
    >
      <Label>{label}</Label>
      <div className="combobox-input">
        <Input className="input" />
        <Button className="icon-button" aria-hidden="true" excludeFromTabOrder>
          ▾
        </Button>
      </div>
      <Popover className="popover">
        <ListBox className="listbox">
          {(option: Option) => (
            <ListBoxItem id={option.id} className="listbox-item">
              {option.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaComboBox>
  );
}
