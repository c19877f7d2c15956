import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { normalizeHex } from '@/lib/site/contrast';

/** One colour offered as a chip: a theme colour, with its name. */
export interface PaletteColor {
  key: string;
  label: string;
  color: string;
}

interface ColorFieldProps {
  /** The hex text box's id: the field's `<label htmlFor>` names it. */
  id: string;
  /** `#rrggbb`, or "" for "the theme's colour" when `allowTheme`. */
  value: string;
  onChange: (value: string) => void;
  /** What the colour is for, in the picker's and chips' accessible names ("Cor de destaque"). */
  name: string;
  /** The theme's colours, one chip each; a click sets that colour. */
  palette?: readonly PaletteColor[];
  /** Offers the "Tema" chip: the empty value, meaning the site theme's colour (issue 41's contract). */
  allowTheme?: boolean;
  /** Marks the hex box invalid (a form's error) and names the text that says why. */
  invalid?: boolean;
  describedBy?: string;
  testId?: string;
}

/**
 * A colour input a person can use: a large swatch that opens the browser's colour picker, the hex
 * value as text (typed `#rgb` or `#rrggbb`, kept when valid), and the theme's palette as chips,
 * with "Tema" for "follow the site's theme". Every part has a name and works from the keyboard.
 */
export function ColorField({
  id,
  value,
  onChange,
  name,
  palette = [],
  allowTheme = false,
  invalid = false,
  describedBy,
  testId,
}: ColorFieldProps) {
  const { t } = useTranslation();
  // What is being typed, while it is typed; the value otherwise (a chip or the picker changed it).
  const [draft, setDraft] = useState<string | null>(null);
  const hex = normalizeHex(value);
  const isTheme = allowTheme && !hex;
  const shown = draft ?? hex ?? '';
  const draftInvalid = draft !== null && draft.trim() !== '' && normalizeHex(draft) === null;

  const type = (text: string) => {
    setDraft(text);
    const typed = normalizeHex(text);
    if (typed) onChange(typed);
    else if (text.trim() === '' && allowTheme) onChange('');
  };

  return (
    <div className="color-field" data-testid={testId} data-value={hex ?? ''}>
      <div className="color-field-row">
        <span className={`color-swatch${isTheme ? ' is-theme' : ''}`}>
          <input
            type="color"
            // The picker needs a colour: the theme's own shows as the stripes over it.
            value={hex ?? '#ffffff'}
            aria-label={t('colorField.picker', { name })}
            onChange={(event) => {
              setDraft(null);
              onChange(event.target.value.toLowerCase());
            }}
            data-testid={testId ? `${testId}-picker` : undefined}
          />
        </span>
        <input
          id={id}
          className="color-hex"
          type="text"
          inputMode="text"
          autoComplete="off"
          spellCheck={false}
          maxLength={7}
          placeholder={allowTheme ? t('colorField.themePlaceholder') : '#rrggbb'}
          value={shown}
          aria-invalid={invalid || draftInvalid ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => type(event.target.value)}
          onBlur={() => setDraft(null)}
          data-testid={testId ? `${testId}-hex` : undefined}
        />
      </div>
      {draftInvalid && (
        <small className="field-error" role="alert">
          {t('colorField.invalid')}
        </small>
      )}
      {(allowTheme || palette.length > 0) && (
        <div className="color-chips" role="group" aria-label={t('colorField.palette', { name })}>
          {allowTheme && (
            <button
              type="button"
              className="color-chip"
              aria-pressed={isTheme}
              title={t('colorField.themeHint')}
              onClick={() => {
                setDraft(null);
                onChange('');
              }}
              data-testid={testId ? `${testId}-theme` : undefined}
            >
              <span className="color-chip-dot is-theme" aria-hidden="true" />
              {t('colorField.theme')}
            </button>
          )}
          {palette.map((chip) => (
            <button
              key={chip.key}
              type="button"
              className="color-chip"
              aria-pressed={hex === normalizeHex(chip.color)}
              title={chip.color}
              onClick={() => {
                setDraft(null);
                onChange(normalizeHex(chip.color) ?? chip.color);
              }}
              data-testid={testId ? `${testId}-chip-${chip.key}` : undefined}
            >
              <span className="color-chip-dot" style={{ background: chip.color }} aria-hidden="true" />
              {chip.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
