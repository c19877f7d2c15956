import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/ui/Dialog';
import { ResponseBox } from '@/components/ResponseBox';
import type { Project } from '@/lib/types';
import { useRemoveDomain } from '@/features/domains/api/remove-domain';
import { reloadPage } from '@/features/domains/lib/reload-page';

interface Props {
  project: Pick<Project, 'id' | 'name' | 'domain'>;
  onClose: () => void;
}

/**
 * Remove domain (spec 1 §2 modals, §4, §8): asks, then takes the domain off the project and
 * reloads the page; a failure shows the serialized response in the Response box.
 */
export function RemoveDomainModal({ project, onClose }: Props) {
  const { t } = useTranslation();
  const remove = useRemoveDomain();
  const start = () => remove.mutate(project.id, { onSuccess: reloadPage });

  let body;
  let footer;
  if (remove.isPending || remove.isSuccess) {
    // Success leaves the modal showing progress until the reload replaces the page.
    body = (
      <p role="status" aria-live="polite" data-testid="remove-domain-progress">
        <span className="spinner" aria-hidden="true" /> {t('domains.removing')}
      </p>
    );
  } else if (remove.isError) {
    body = <ResponseBox error={remove.error} title={t('domains.removeFailed')} />;
    footer = (
      <div className="button-row">
        <button type="button" className="button" onClick={onClose}>
          {t('common.close')}
        </button>
        <button
          type="button"
          className="button button-danger"
          onClick={start}
          data-testid="remove-domain-retry"
        >
          {t('domains.retry')}
        </button>
      </div>
    );
  } else {
    body = <p>{t('domains.removeConfirm', { domain: project.domain ?? '', name: project.name })}</p>;
    footer = (
      <div className="button-row">
        <button type="button" className="button" onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button
          type="button"
          className="button button-danger"
          onClick={start}
          data-testid="remove-domain-confirm"
          autoFocus
        >
          {t('domains.remove')}
        </button>
      </div>
    );
  }

  return (
    <Dialog title={t('domains.removeTitle')} onClose={onClose} footer={footer} testId="remove-domain-modal">
      {body}
    </Dialog>
  );
}
