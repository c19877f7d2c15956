import { useTranslation } from 'react-i18next';
import type { PaletteColor } from '@/components/ColorField';
import { THEME_COLORS, useTheme, type SiteTheme } from './identity';

/** The theme's four colours as chips, named in the reader's language. */
export function themePalette(theme: SiteTheme | undefined, label: (key: string) => string): PaletteColor[] {
  if (!theme) return [];
  return THEME_COLORS.map((key) => ({ key, label: label(`colorField.colors.${key}`), color: theme[key] }));
}

/** The project's theme palette for colour fields (none while it loads or when it cannot be read). */
export function useThemePalette(projectId: number): PaletteColor[] {
  const { t } = useTranslation();
  const theme = useTheme(projectId);
  return themePalette(theme.data?.theme, (key) => t(key));
}
