import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ComboBox } from '@/components/ui/ComboBox';
import { searchFonts, type CatalogueFont } from '@/features/projects/lib/fonts';

interface FontPickerProps {
  catalogue: readonly CatalogueFont[];
  label: string;
  placeholder?: string;
  exclude?: readonly string[];
  onPick: (font: CatalogueFont) => void;
  testId: string;
}

/** Search box over the shipped catalogue listing at most 10 matches (the kit's combobox). */
export function FontPicker({ catalogue, label, placeholder, exclude, onPick, testId }: FontPickerProps) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  // A pick empties the box: a new combobox, closed, for the next search.
  const [round, setRound] = useState(0);
  const matches = query.trim() ? searchFonts(catalogue, query, exclude) : [];

  return (
    <div className="font-picker" data-testid={testId}>
      <ComboBox
        key={round}
        label={label}
        hideLabel
        placeholder={placeholder ?? t('settings.fonts.search')}
        options={matches.map((font) => ({ id: font.family, label: font.family, description: font.category }))}
        value={null}
        inputValue={query}
        onInputChange={setQuery}
        emptyText={t('settings.fonts.noMatch')}
        onChange={(family) => {
          const font = matches.find((item) => item.family === family);
          if (!font) return;
          onPick(font);
          setQuery('');
          setRound((value) => value + 1);
        }}
      />
    </div>
  );
}
