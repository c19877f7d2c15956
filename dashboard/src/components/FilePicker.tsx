import { useState, type InputHTMLAttributes, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonClass } from './ui/button-class';

export interface FilePickerProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'className'> {
  id: string;
  /** The button's text: "Escolher arquivo" unless the screen says what to choose. */
  buttonLabel?: string;
  ref?: Ref<HTMLInputElement>;
  'data-testid'?: string;
}

/** The names of the chosen files, or null for none. */
export function chosenNames(files: FileList | null | undefined): string | null {
  const names = [...(files ?? [])].map((file) => file.name);
  return names.length > 0 ? names.join(', ') : null;
}

/**
 * A file input in the dashboard's look and language: the browser's own control ("Choose File",
 * "No file chosen", in the browser's language) is replaced by a kit button with a translated
 * label and the chosen file's name beside it. The input stays in the page, visually hidden, so
 * it keeps its focus, keyboard use, form binding and accessible name (the field's label);
 * the button is its `<label>`, so a click on it opens the file chooser.
 */
export function FilePicker({ id, buttonLabel, onChange, disabled, ...input }: FilePickerProps) {
  const { t } = useTranslation();
  const [name, setName] = useState<string | null>(null);
  return (
    <span className="file-picker">
      <input
        {...input}
        id={id}
        type="file"
        className="sr-only"
        disabled={disabled}
        onChange={(event) => {
          setName(chosenNames(event.target.files));
          onChange?.(event);
        }}
      />
      <label htmlFor={id} className={buttonClass('default', 'small')} aria-disabled={disabled || undefined}>
        {buttonLabel ?? t('kit.file.choose')}
      </label>
      <span className="file-picker-name" data-testid={`${id}-chosen`}>
        {name ?? t('kit.file.none')}
      </span>
    </span>
  );
}
