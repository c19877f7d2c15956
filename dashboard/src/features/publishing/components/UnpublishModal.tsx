import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/ui/Dialog';
import type { Project } from '@/lib/types';
import { useUnpublishProject } from '@/features/publishing/api/unpublish-project';
import { ResponseBox } from '@/components/ResponseBox';
import { siteAddress } from './address';

interface Props {
  project: Pick<Project, 'id' | 'name' | 'domain' | 'preview_url'>;
  onClose: () => void;
}

/**
 * Unpublish (spec 1 §2 modals, §4): asks, then takes the site offline; ends on "done" (the
 * project's state updates through the query cache) or on the serialized response.
 */
export function UnpublishModal({ project, onClose }: Props) {
  const { t } = useTranslation();
  const unpublish = useUnpublishProject();
  const start = () => unpublish.mutate(project.id);

  let body;
  let footer;
  if (unpublish.isPending) {
    body = (
      <p role="status" aria-live="polite" data-testid="unpublish-progress">
        <span className="spinner" aria-hidden="true" /> {t('publishing.unpublishing')}
      </p>
    );
  } else if (unpublish.isSuccess) {
    body = (
      <div className="alert alert-success" role="status" data-testid="unpublish-success">
        {t('publishing.unpublished')}
      </div>
    );
    footer = (
      <button
        type="button"
        className="button button-primary"
        onClick={onClose}
        data-testid="unpublish-done"
        autoFocus
      >
        {t('common.close')}
      </button>
    );
  } else if (unpublish.isError) {
    body = <ResponseBox error={unpublish.error} title={t('publishing.unpublishFailed')} />;
    footer = (
      <div className="button-row">
        <button type="button" className="button" onClick={onClose}>
          {t('common.close')}
        </button>
        <button type="button" className="button button-danger" onClick={start} data-testid="unpublish-retry">
          {t('publishing.retry')}
        </button>
      </div>
    );
  } else {
    body = <p>{t('publishing.unpublishConfirm', { name: project.name, address: siteAddress(project) })}</p>;
    footer = (
      <div className="button-row">
        <button type="button" className="button" onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button
          type="button"
          className="button button-danger"
          onClick={start}
          data-testid="unpublish-confirm"
          autoFocus
        >
          {t('publishing.unpublishAction')}
        </button>
      </div>
    );
  }

  return (
    <Dialog title={t('publishing.unpublishTitle')} onClose={onClose} footer={footer} testId="unpublish-modal">
      {body}
    </Dialog>
  );
}
