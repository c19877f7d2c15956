import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { searchFonts, type CatalogueFont } from '@/features/projects/lib/fonts';

interface FontPickerProps {
  catalogue: readonly CatalogueFont[];
  label: string;
  placeholder?: string;
  exclude?: readonly string[];
  onPick: (font: CatalogueFont) => void;
  testId: string;
}

/** Search box over the shipped catalogue listing at most 10 matches. */
export function FontPicker({ catalogue, label, placeholder, exclude, onPick, testId }: FontPickerProps) {
  const { t } = useTranslation();
  const id = useId();
  const [query, setQuery] = useState('');
  const matches = searchFonts(catalogue, query, exclude);

  return (
    <div className="font-picker" data-testid={testId}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        type="search"
        value={query}
        placeholder={placeholder ?? t('settings.fonts.search')}
        onChange={(event) => setQuery(event.target.value)}
        autoComplete="off"
      />
      {query.trim() && (
        <ul className="font-matches" role="listbox" aria-label={label}>
          {matches.length === 0 && <li className="muted">{t('settings.fonts.noMatch')}</li>}
          {matches.map((font) => (
            <li key={font.family}>
              <button
                type="button"
                role="option"
                aria-selected={false}
                onClick={() => {
                  onPick(font);
                  setQuery('');
                }}
              >
                <span>{font.family}</span>
                <span className="muted small">{font.category}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
