import { useTranslation } from 'react-i18next';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import type { Project } from '@/lib/types';
import { useUpdateProject } from '@/features/projects/api/update-project';

/**
 * The site's analytics on or off, saved to the project's meta (`analytics`) at once, as the HSTS
 * switch is. On by default; off, the published site counts no visits (what was counted stays).
 * `enabled` is what the analytics report says; saving refreshes it (its query is under the
 * project's key).
 */
export function AnalyticsToggle({ project, enabled }: { project: Pick<Project, 'id'>; enabled: boolean }) {
  const { t } = useTranslation();
  const update = useUpdateProject();
  // While saving, show what was asked for rather than flicker back to the old value.
  const checked = update.isPending ? update.variables.meta?.analytics !== false : enabled;

  const toggle = (analytics: boolean) =>
    update.mutate(
      { id: project.id, meta: { analytics } },
      {
        onSuccess: () =>
          toast.success(analytics ? t('project.analytics.enabled') : t('project.analytics.disabled')),
        onError: (error) => toast.error(errorMessage(error)),
      },
    );

  return (
    <div className="analytics-toggle">
      <label className="checkbox">
        <input
          type="checkbox"
          checked={checked}
          disabled={update.isPending}
          onChange={(event) => toggle(event.target.checked)}
          aria-describedby="analytics-toggle-help"
          data-testid="analytics-toggle"
        />
        {t('project.analytics.label')}
      </label>
      <small id="analytics-toggle-help" className="field-hint">
        {t('project.analytics.help')}
      </small>
    </div>
  );
}
