import type { ReactNode } from 'react';
import { Controller, useWatch, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ColorField } from '@/components/ColorField';
import { ActionButton } from '@/components/ActionButton';
import { Alert } from '@/components/Alert';
import { FormField } from '@/components/FormField';
import { errorText } from '@/lib/forms';
import { THRESHOLDS, onColor, themeContrast } from '@/lib/site/contrast';
import { THEME_COLORS, type ThemeColor } from '@/lib/site/identity';
import type { IdentityFormInput } from '@/features/identity/lib/schema';

/** What the app gives the screen to pick a font from the platform's catalogue. */
export interface FontPickerProps {
  label: string;
  testId: string;
  onPick: (family: string) => void;
}
export type FontPickerSlot = (props: FontPickerProps) => ReactNode;

const FONTS = ['headingFont', 'bodyFont'] as const;

/** One ratio as people read it: "4,6:1". */
function useRatio() {
  const { i18n } = useTranslation();
  return (ratio: number) =>
    `${new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1, minimumFractionDigits: 1 }).format(ratio)}:1`;
}

/**
 * The theme's colours (each a colour field), its two fonts, a preview of text on the background
 * and of a button in each of primary and accent, and the three WCAG contrast ratios worked out as
 * the colours change, each marked when below AA (4.5:1 for text and primary, 3:1 for accent).
 */
export function ThemeFields({
  control,
  fontPicker,
}: {
  control: Control<IdentityFormInput>;
  fontPicker?: FontPickerSlot;
}) {
  const { t } = useTranslation();
  const ratio = useRatio();
  const theme = useWatch({ control, name: 'theme' });
  const contrast = themeContrast(theme);
  const palette = THEME_COLORS.map((key) => ({
    key,
    label: t(`colorField.colors.${key}`),
    color: theme[key],
  }));

  const colorField = (key: ThemeColor) => (
    <Controller
      key={key}
      control={control}
      name={`theme.${key}`}
      render={({ field, fieldState }) => (
        <FormField
          label={t(`colorField.colors.${key}`)}
          id={`theme-${key}`}
          error={errorText(t, fieldState.error)}
          description={t(`identity.theme.hints.${key}`)}
        >
          {(wiring) => (
            <ColorField
              id={wiring.id}
              name={t(`colorField.colors.${key}`)}
              value={field.value}
              onChange={field.onChange}
              palette={palette.filter((chip) => chip.key !== key)}
              invalid={wiring['aria-invalid']}
              describedBy={wiring['aria-describedby']}
              testId={`theme-${key}`}
            />
          )}
        </FormField>
      )}
    />
  );

  const fontField = (key: (typeof FONTS)[number]) => (
    <Controller
      key={key}
      control={control}
      name={`theme.${key}`}
      render={({ field }) => (
        <div className="field" data-testid={`theme-${key}`}>
          <span className="label">{t(`identity.theme.${key}`)}</span>
          <div className="font-current">
            <strong data-testid={`theme-${key}-value`}>
              {field.value || t('identity.theme.defaultFont')}
            </strong>
            {field.value && (
              <ActionButton size="small" onClick={() => field.onChange('')} testId={`theme-${key}-reset`}>
                {t('identity.theme.useDefaultFont')}
              </ActionButton>
            )}
          </div>
          {fontPicker?.({
            label: t(`identity.theme.${key}`),
            testId: `theme-${key}-picker`,
            onPick: field.onChange,
          })}
        </div>
      )}
    />
  );

  const rows = (['text', 'primary', 'accent'] as const).map((pair) => {
    const value = contrast[pair];
    const low = value !== null && value < THRESHOLDS[pair];
    return (
      <li key={pair} className={low ? 'is-low' : undefined} data-testid={`contrast-${pair}`}>
        {t(`identity.theme.contrast.${pair}`)}: {value === null ? '—' : ratio(value)}{' '}
        {value !== null &&
          (low
            ? `⚠ ${t('identity.theme.contrast.low', { min: ratio(THRESHOLDS[pair]) })}`
            : `✓ ${t('identity.theme.contrast.ok')}`)}
      </li>
    );
  });

  const font = (family: string) => (family ? `"${family}", system-ui, sans-serif` : undefined);

  return (
    <div className="theme-fields">
      <div className="theme-colors">{THEME_COLORS.map(colorField)}</div>
      <div className="theme-colors">{FONTS.map(fontField)}</div>
      <div
        className="theme-preview"
        style={{ background: theme.background, color: theme.text, fontFamily: font(theme.bodyFont) }}
        data-testid="theme-preview"
        aria-label={t('identity.theme.preview')}
        role="group"
      >
        <p className="theme-preview-title" style={{ fontFamily: font(theme.headingFont) }}>
          {t('identity.theme.previewTitle')}
        </p>
        <p className="theme-preview-text">{t('identity.theme.previewText')}</p>
        <div className="theme-preview-buttons">
          {(['primary', 'accent'] as const).map((key) => (
            <span
              key={key}
              className="theme-preview-button"
              style={{ background: theme[key], color: onColor(theme[key]) }}
              data-testid={`theme-preview-${key}`}
            >
              {t(`identity.theme.previewButton.${key}`)}
            </span>
          ))}
        </div>
      </div>
      <ul className="contrast-list" aria-live="polite" data-testid="contrast">
        {rows}
      </ul>
      {contrast.warnings.length > 0 && (
        <Alert kind="warning" testId="contrast-warning">
          {t('identity.theme.contrast.warning')}
        </Alert>
      )}
    </div>
  );
}
