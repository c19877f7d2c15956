import { useTranslation } from 'react-i18next';

export function StateBadge({ published }: { published: boolean }) {
  const { t } = useTranslation();
  return (
    <span className={`badge ${published ? 'badge-success' : 'badge-muted'}`} data-testid="project-state">
      {published ? t('projects.published') : t('projects.unpublished')}
    </span>
  );
}
