import { useTranslation } from 'react-i18next';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import type { Project } from '@/lib/types';
import { useUpdateProject } from '@/features/projects/api/update-project';

/**
 * Opt-in HSTS for the custom domain, saved to the project's meta at once. Off by default: once a
 * browser has seen the header it refuses plain HTTP for the domain until the header expires, so
 * turning it off later does not undo it for visitors who already came.
 */
export function HstsToggle({ project }: { project: Pick<Project, 'id' | 'meta'> }) {
  const { t } = useTranslation();
  const update = useUpdateProject();
  // While saving, show what was asked for rather than flicker back to the old value.
  const checked = update.isPending ? Boolean(update.variables.meta?.hsts) : Boolean(project.meta.hsts);

  const toggle = (hsts: boolean) =>
    update.mutate(
      { id: project.id, meta: { hsts } },
      {
        onSuccess: () => toast.success(hsts ? t('project.hsts.enabled') : t('project.hsts.disabled')),
        onError: (error) => toast.error(errorMessage(error)),
      },
    );

  return (
    <div className="hsts-toggle">
      <label className="checkbox">
        <input
          type="checkbox"
          checked={checked}
          disabled={update.isPending}
          onChange={(event) => toggle(event.target.checked)}
          aria-describedby="hsts-help"
          data-testid="hsts-toggle"
        />
        {t('project.hsts.label')}
      </label>
      <small id="hsts-help" className="field-hint" data-testid="hsts-help">
        {t('project.hsts.help')}
      </small>
    </div>
  );
}
