import { useTranslation } from 'react-i18next';
import { errorMessage } from '@/lib/api-client';
import { useDeleteBusinessBlock } from '@/lib/business-blocks/delete-business-block';
import type { BusinessBlock } from '@/lib/types';
import { Dialog } from '@/components/ui/Dialog';
import { DialogActions } from './DialogActions';
import { showToast } from './toast';

interface Props {
  block: BusinessBlock;
  onClose: () => void;
}

/**
 * Asks before a block leaves the business's library, for every member at once (the editor's
 * panel and the business admin's list both delete through it). Pages that use the block keep
 * their copy of it.
 */
export function DeleteBusinessBlockModal({ block, onClose }: Props) {
  const { t } = useTranslation();
  const remove = useDeleteBusinessBlock();
  const confirm = () =>
    remove.mutate(block.id, {
      onSuccess: () => {
        showToast(t('businessLibrary.deleted', { name: block.name }), 'success');
        onClose();
      },
      onError: (error) => showToast(errorMessage(error), 'error'),
    });
  const footer = (
    <DialogActions
      actionLabel={t('common.delete')}
      onAction={confirm}
      onCancel={onClose}
      destructive
      actionDisabled={remove.isPending}
      actionTestId="business-block-delete-confirm"
    />
  );
  return (
    <Dialog
      title={t('businessLibrary.deleteTitle')}
      onClose={onClose}
      footer={footer}
      testId="business-block-delete-modal"
    >
      <p>{t('businessLibrary.confirmDelete', { name: block.name })}</p>
    </Dialog>
  );
}
