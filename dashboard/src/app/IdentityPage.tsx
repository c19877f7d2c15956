import { FontPicker } from '@/features/projects/components/FontPicker';
import { useFontsCatalogue } from '@/features/projects/api/get-fonts-catalogue';
import { IdentityRoute } from '@/features/identity/routes/IdentityRoute';
import type { FontPickerProps } from '@/features/identity/components/ThemeFields';

/** The projects feature's font search over the platform catalogue, picking a family by name. */
function CatalogueFontPicker({ label, testId, onPick }: FontPickerProps) {
  const catalogue = useFontsCatalogue();
  return (
    <FontPicker
      catalogue={catalogue.data ?? []}
      label={label}
      testId={testId}
      onPick={(font) => onPick(font.family)}
    />
  );
}

/**
 * "/project/{id}/identity" as the app shows it: the identity feature's screen with the projects
 * feature's font picker for the theme's heading and body fonts.
 */
export function IdentityPage() {
  return <IdentityRoute fontPicker={(props) => <CatalogueFontPicker {...props} />} />;
}
