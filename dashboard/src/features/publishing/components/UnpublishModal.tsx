import { useTranslation } from 'react-i18next';
import { type ConfirmLabels, ConfirmActions, DoneButton, Progress } from '@/components/DialogActions';
import { Dialog } from '@/components/ui/Dialog';
import type { Project } from '@/lib/types';
import type { AddressFields } from '@/lib/domain-status';
import { useUnpublishProject } from '@/features/publishing/api/unpublish-project';
import { ResponseBox } from '@/components/ResponseBox';
import { liveAddress } from '@/lib/domain-status';

interface Props {
  project: Pick<Project, 'id' | 'name'> & AddressFields;
  onClose: () => void;
}

const UNPUBLISH_ACTIONS: ConfirmLabels = {
  testId: 'unpublish',
  confirmKey: 'publishing.unpublishAction',
  retryKey: 'publishing.retry',
  destructive: true,
};

/**
 * Unpublish (spec 1 §2 modals, §4): asks, then takes the site offline; ends on "done" (the
 * project's state updates through the query cache) or on the serialized response.
 */
export function UnpublishModal({ project, onClose }: Props) {
  const { t } = useTranslation();
  const unpublish = useUnpublishProject();
  const start = () => unpublish.mutate(project.id);

  let body;
  if (unpublish.isPending) {
    body = <Progress testId="unpublish-progress">{t('publishing.unpublishing')}</Progress>;
  } else if (unpublish.isSuccess) {
    body = (
      <div className="alert alert-success" role="status" data-testid="unpublish-success">
        {t('publishing.unpublished')}
      </div>
    );
  } else if (unpublish.isError) {
    body = <ResponseBox error={unpublish.error} title={t('publishing.unpublishFailed')} />;
  } else {
    body = <p>{t('publishing.unpublishConfirm', { name: project.name, address: liveAddress(project) })}</p>;
  }
  let footer;
  if (unpublish.isSuccess) footer = <DoneButton onClose={onClose} testId="unpublish-done" />;
  else if (!unpublish.isPending) {
    footer = (
      <ConfirmActions failed={unpublish.isError} onClose={onClose} onConfirm={start} {...UNPUBLISH_ACTIONS} />
    );
  }

  return (
    <Dialog title={t('publishing.unpublishTitle')} onClose={onClose} footer={footer} testId="unpublish-modal">
      {body}
    </Dialog>
  );
}
