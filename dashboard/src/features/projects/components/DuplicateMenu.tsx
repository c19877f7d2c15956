import { useTranslation } from 'react-i18next';
import { toast } from '@/components/toast';
import { MenuButton, MenuItem } from '@/components/ui/Menu';
import { errorMessage } from '@/lib/api-client';
import type { Project } from '@/lib/types';
import { useDuplicateProject } from '@/features/projects/api/duplicate-project';

/** The "Duplicate" menu of a project card or row (the kit's WAI-ARIA menu button). */
export function DuplicateMenu({ project }: { project: Project }) {
  const { t } = useTranslation();
  const duplicate = useDuplicateProject();

  const run = () =>
    duplicate.mutate(project.id, {
      onSuccess: () => toast.success(t('projects.duplicated')),
      onError: (error) => toast.error(errorMessage(error)),
    });

  return (
    <MenuButton label={t('projects.duplicate')} isDisabled={duplicate.isPending} testId="duplicate-toggle">
      <MenuItem onAction={run} testId="duplicate-action">
        {t('projects.duplicateAction')}
      </MenuItem>
    </MenuButton>
  );
}
