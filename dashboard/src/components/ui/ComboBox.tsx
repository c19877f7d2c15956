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

export interface ComboOption {
  id: string;
  label: string;
  /** A second, muted line part (a font's category). */
  description?: string;
}

export interface ComboBoxProps {
  label: string;
  /** The label stays for screen readers only (a search box with a placeholder). */
  hideLabel?: boolean;
  options: ComboOption[];
  value?: string | null;
  onChange: (value: string | null) => void;
  /**
   * The typed text, when the screen filters `options` itself (a catalogue search); without it
   * the combobox filters `options` by what is typed.
   */
  inputValue?: string;
  onInputChange?: (value: string) => void;
  placeholder?: string;
  /** Shown in the list when nothing matches. */
  emptyText?: string;
  testId?: string;
}

/**
 * A labelled text field that filters a list (React Aria's `ComboBox`, the WAI-ARIA combobox
 * pattern: ArrowDown opens the list, the arrow keys move, Enter picks, Escape closes): for choices
 * too many to scroll through.
 */
export function ComboBox({
  label,
  hideLabel = false,
  options,
  value,
  onChange,
  inputValue,
  onInputChange,
  placeholder,
  emptyText,
  testId,
}: ComboBoxProps) {
  const controlled = inputValue !== undefined;
  return (
    <AriaComboBox
      className="field combobox"
      selectedKey={value}
      onSelectionChange={(key: Key | null) => onChange(key == null ? null : String(key))}
      {...(controlled ? { items: options, inputValue, onInputChange } : { defaultItems: options })}
      menuTrigger="input"
      allowsEmptyCollection={Boolean(emptyText)}
      data-testid={testId}
    >
      <Label className={hideLabel ? 'sr-only' : undefined}>{label}</Label>
      <div className="combobox-input">
        <Input placeholder={placeholder} />
        <Button className="icon-button" excludeFromTabOrder aria-hidden="true">
          ▾
        </Button>
      </div>
      <Popover className="popover combobox-popover">
        <ListBox
          className="listbox"
          renderEmptyState={() => <p className="muted listbox-empty">{emptyText}</p>}
        >
          {(option: ComboOption) => (
            <ListBoxItem id={option.id} textValue={option.label} className="listbox-item combobox-option">
              <span>{option.label}</span>
              {option.description && <span className="muted small">{option.description}</span>}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaComboBox>
  );
}
