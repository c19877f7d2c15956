import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PublishTarget } from '@/features/publishing/types';
import { PublishModal } from './PublishModal';
import { UnpublishModal } from './UnpublishModal';

interface Props {
  project: PublishTarget;
}

/**
 * The project's state as a button (spec 1 §2 project overview): clicking it opens Publish when
 * the project is unpublished and Unpublish when it is published.
 */
export function PublishStateButton({ project }: Props) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<'publish' | 'unpublish' | null>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  // Keyboard users land back where they were when the modal closes.
  const close = () => {
    setOpen(null);
    trigger.current?.focus();
  };
  const state = project.is_published ? t('projects.published') : t('projects.unpublished');
  const action = project.is_published ? t('publishing.unpublishAction') : t('publishing.publishAction');

  return (
    <>
      <button
        ref={trigger}
        type="button"
        className={`badge badge-button ${project.is_published ? 'badge-success' : 'badge-muted'}`}
        aria-haspopup="dialog"
        aria-label={t('publishing.stateLabel', { state, action })}
        title={action}
        onClick={() => setOpen(project.is_published ? 'unpublish' : 'publish')}
        data-testid="project-state"
        data-published={project.is_published}
      >
        {state}
      </button>
      {open === 'publish' && <PublishModal project={project} onClose={close} />}
      {open === 'unpublish' && <UnpublishModal project={project} onClose={close} />}
    </>
  );
}
