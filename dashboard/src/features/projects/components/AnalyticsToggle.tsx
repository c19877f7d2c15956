import { useTranslation } from 'react-i18next';
import type { Project } from '@/lib/types';
import { MetaToggle } from './MetaToggle';

/**
 * The site's analytics on or off, saved to the project's meta (`analytics`) at once, as the HSTS
 * switch is. On by default; off, the published site counts no visits (what was counted stays).
 * `enabled` is what the analytics report says; saving refreshes it (its query is under the
 * project's key).
 */
export function AnalyticsToggle({ project, enabled }: { project: Pick<Project, 'id'>; enabled: boolean }) {
  const { t } = useTranslation();
  return (
    <MetaToggle
      projectId={project.id}
      setting="analytics"
      value={enabled}
      texts={{
        label: t('project.analytics.label'),
        help: t('project.analytics.help'),
        enabled: t('project.analytics.enabled'),
        disabled: t('project.analytics.disabled'),
      }}
    />
  );
}
