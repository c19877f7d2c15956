import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MenuButton, MenuItem } from '@/components/ui/Menu';
import type { PublishTarget } from '@/features/publishing/types';
import { PublishModal } from './PublishModal';
import { UnpublishModal } from './UnpublishModal';

interface Props {
  project: PublishTarget;
  /** Publish is offered but disabled (the editor with unsaved changes). */
  publishDisabled?: boolean;
  /** The domain modal, supplied by the app (features don't import each other); no item without it. */
  domainModal?: (onClose: () => void) => ReactNode;
}

/**
 * The publish dropdown (spec 2 §2 top bar: "publish" dropdown and the domain modal; issue 22):
 * the site's state as the trigger, and Publish, Unpublish (when the site is live, destructive,
 * behind its confirmation) and Domain as items. Shown in the project overview and the editor's
 * top bar, so taking a site offline is a visible action, not only a click on the state badge.
 */
export function PublishMenu({ project, publishDisabled = false, domainModal }: Props) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<'publish' | 'unpublish' | 'domain' | null>(null);
  const close = () => setOpen(null);
  const state = project.is_published ? t('projects.published') : t('projects.unpublished');

  return (
    <>
      <MenuButton
        label={t('publishing.menu.label', { state })}
        aria-label={t('publishing.menu.title')}
        className={`button button-small ${project.is_published ? 'publish-menu-live' : ''}`}
        testId="publish-menu"
      >
        <MenuItem
          id="publish"
          testId="publish-menu-publish"
          isDisabled={publishDisabled}
          onAction={() => setOpen('publish')}
        >
          {project.is_published ? t('publishing.menu.republish') : t('publishing.publishAction')}
        </MenuItem>
        {project.is_published && (
          <MenuItem
            id="unpublish"
            testId="publish-menu-unpublish"
            destructive
            onAction={() => setOpen('unpublish')}
          >
            {t('publishing.unpublishAction')}
          </MenuItem>
        )}
        {domainModal && (
          <MenuItem id="domain" testId="publish-menu-domain" onAction={() => setOpen('domain')}>
            {t('publishing.menu.domain')}
          </MenuItem>
        )}
      </MenuButton>
      {open === 'publish' && <PublishModal project={project} onClose={close} />}
      {open === 'unpublish' && <UnpublishModal project={project} onClose={close} />}
      {open === 'domain' && domainModal?.(close)}
    </>
  );
}
