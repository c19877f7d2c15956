import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CustomFont, Font } from '@/lib/types';
import { useFontsCatalogue } from '@/features/projects/api/get-fonts-catalogue';
import { defaultFontFamily, newFont } from '@/features/projects/lib/fonts';
import { CustomFontModal } from './CustomFontModal';
import { FontPicker } from './FontPicker';
import { ActionButton } from '@/components/ActionButton';

export interface FontValues {
  defaultFont: Font | null;
  fonts: Font[];
  customFonts: CustomFont[];
}

interface FontSettingsProps {
  value: FontValues;
  onChange: (value: FontValues) => void;
  uploadPrefix: (string | number)[];
}

function toggle(list: string[], item: string): string[] {
  return list.includes(item) ? list.filter((value) => value !== item) : [...list, item];
}

/** Default font, extra fonts with their variants, and uploaded custom fonts. */
export function FontSettings({ value, onChange, uploadPrefix }: FontSettingsProps) {
  const { t } = useTranslation();
  const catalogue = useFontsCatalogue();
  const [addingCustom, setAddingCustom] = useState(false);
  const fonts = catalogue.data ?? [];
  const variantsOf = (family: string) => fonts.find((font) => font.family === family)?.variants ?? [];

  return (
    <div className="font-settings">
      <div className="field">
        <span className="label">{t('settings.fonts.default')}</span>
        <div className="font-current" data-testid="default-font">
          <strong>{value.defaultFont?.family ?? defaultFontFamily}</strong>
          {value.defaultFont && (
            <ActionButton size="small" onClick={() => onChange({ ...value, defaultFont: null })}>
              {t('settings.fonts.reset', { font: defaultFontFamily })}
            </ActionButton>
          )}
        </div>
        <FontPicker
          catalogue={fonts}
          label={t('settings.fonts.default')}
          onPick={(font) => onChange({ ...value, defaultFont: newFont(font) })}
          testId="default-font-picker"
        />
      </div>

      <div className="field">
        <span className="label">{t('settings.fonts.extra')}</span>
        {value.fonts.length === 0 && <p className="muted small">{t('settings.fonts.noExtra')}</p>}
        <ul className="font-list">
          {value.fonts.map((font, index) => (
            <li key={font.family}>
              <div className="font-list-head">
                <strong>{font.family}</strong>
                <ActionButton
                  size="small"
                  variant="danger-ghost"
                  onClick={() => onChange({ ...value, fonts: value.fonts.filter((_, i) => i !== index) })}
                >
                  {t('common.remove')}
                </ActionButton>
              </div>
              <div className="chips">
                {variantsOf(font.family).map((variant) => (
                  <label key={variant} className={`chip${font.variants.includes(variant) ? ' chip-on' : ''}`}>
                    <input
                      type="checkbox"
                      checked={font.variants.includes(variant)}
                      onChange={() =>
                        onChange({
                          ...value,
                          fonts: value.fonts.map((f, i) =>
                            i === index ? { ...f, variants: toggle(f.variants, variant) } : f,
                          ),
                        })
                      }
                    />
                    {variant}
                  </label>
                ))}
              </div>
            </li>
          ))}
        </ul>
        <FontPicker
          catalogue={fonts}
          label={t('settings.fonts.add')}
          placeholder={t('settings.fonts.add')}
          exclude={value.fonts.map((font) => font.family)}
          onPick={(font) => onChange({ ...value, fonts: [...value.fonts, newFont(font)] })}
          testId="extra-font-picker"
        />
      </div>

      <div className="field">
        <span className="label">{t('settings.customFonts.title')}</span>
        {value.customFonts.length === 0 && <p className="muted small">{t('settings.customFonts.none')}</p>}
        <ul className="font-list">
          {value.customFonts.map((font, index) => (
            <li key={`${font.family}-${font.filename}`} className="font-list-head">
              <span>
                <strong>{font.family}</strong>{' '}
                <span className="badge badge-muted">{font.variants.join(', ')}</span>
              </span>
              <ActionButton
                size="small"
                variant="danger-ghost"
                onClick={() =>
                  onChange({ ...value, customFonts: value.customFonts.filter((_, i) => i !== index) })
                }
              >
                {t('common.remove')}
              </ActionButton>
            </li>
          ))}
        </ul>
        <ActionButton size="small" onClick={() => setAddingCustom(true)} testId="add-custom-font">
          + {t('settings.customFonts.add')}
        </ActionButton>
      </div>
      {addingCustom && (
        <CustomFontModal
          prefix={uploadPrefix}
          onClose={() => setAddingCustom(false)}
          onAdd={(font) => onChange({ ...value, customFonts: [...value.customFonts, font] })}
        />
      )}
    </div>
  );
}
