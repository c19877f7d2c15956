import { useTranslation } from 'react-i18next';
import type { Project } from '@/lib/types';
import { MetaToggle } from './MetaToggle';

/**
 * Opt-in HSTS for the custom domain, saved to the project's meta at once. Off by default: once a
 * browser has seen the header it refuses plain HTTP for the domain until the header expires, so
 * turning it off later does not undo it for visitors who already came.
 */
export function HstsToggle({ project }: { project: Pick<Project, 'id' | 'meta'> }) {
  const { t } = useTranslation();
  return (
    <MetaToggle
      projectId={project.id}
      setting="hsts"
      value={Boolean(project.meta.hsts)}
      texts={{
        label: t('project.hsts.label'),
        help: t('project.hsts.help'),
        enabled: t('project.hsts.enabled'),
        disabled: t('project.hsts.disabled'),
      }}
    />
  );
}
