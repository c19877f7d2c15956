import { useTranslation } from 'react-i18next';
import { type ConfirmLabels, ConfirmActions, Progress } from '@/components/DialogActions';
import { Dialog } from '@/components/ui/Dialog';
import { ResponseBox } from '@/components/ResponseBox';
import type { Project } from '@/lib/types';
import { useRemoveDomain } from '@/features/domains/api/remove-domain';
import { reloadPage } from '@/features/domains/lib/reload-page';

interface Props {
  project: Pick<Project, 'id' | 'name' | 'domain'>;
  onClose: () => void;
}

const REMOVE_ACTIONS: ConfirmLabels = {
  testId: 'remove-domain',
  confirmKey: 'domains.remove',
  retryKey: 'domains.retry',
  destructive: true,
};

/**
 * Remove domain (spec 1 §2 modals, §4, §8): asks, then takes the domain off the project and
 * reloads the page; a failure shows the serialized response in the Response box.
 */
export function RemoveDomainModal({ project, onClose }: Props) {
  const { t } = useTranslation();
  const remove = useRemoveDomain();
  const start = () => remove.mutate(project.id, { onSuccess: reloadPage });

  // Success leaves the modal showing progress until the reload replaces the page.
  const waiting = remove.isPending || remove.isSuccess;
  let body;
  if (waiting) {
    body = <Progress testId="remove-domain-progress">{t('domains.removing')}</Progress>;
  } else if (remove.isError) {
    body = <ResponseBox error={remove.error} title={t('domains.removeFailed')} />;
  } else {
    body = <p>{t('domains.removeConfirm', { domain: project.domain ?? '', name: project.name })}</p>;
  }
  const footer = !waiting && (
    <ConfirmActions failed={remove.isError} onClose={onClose} onConfirm={start} {...REMOVE_ACTIONS} />
  );

  return (
    <Dialog title={t('domains.removeTitle')} onClose={onClose} footer={footer} testId="remove-domain-modal">
      {body}
    </Dialog>
  );
}
