import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/Alert';
import { FormField } from '@/components/FormField';
import { Dialog } from '@/components/ui/Dialog';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { useUpdateFormSettings } from '@/features/form-history/api/update-form-settings';
import {
  FORM_HISTORY_ORDERS,
  isFormHistoryOrder,
  type FormHistoryOrder,
} from '@/features/form-history/types';
import { FormEmailSettings } from './FormEmailSettings';

interface Props {
  projectId: number;
  order: FormHistoryOrder;
  onClose: () => void;
}

/** "Settings for form history" (spec §2 modals): where notifications go, and the order of the list. */
export function FormHistorySettingsModal({ projectId, order, onClose }: Props) {
  const { t } = useTranslation();
  const save = useUpdateFormSettings();
  const [value, setValue] = useState<FormHistoryOrder>(order);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      { projectId, formHistoryOrderBy: value },
      {
        onSuccess: () => {
          toast.success(t('formHistory.settingsSaved'));
          onClose();
        },
      },
    );
  };

  return (
    <Dialog title={t('formHistory.settingsTitle')} onClose={onClose} testId="form-history-settings">
      <FormEmailSettings projectId={projectId} />
      <form onSubmit={submit} className="form">
        {save.isError && <Alert>{errorMessage(save.error)}</Alert>}
        <FormField label={t('formHistory.orderBy')} id="form-history-order">
          <select
            id="form-history-order"
            value={value}
            onChange={(event) => isFormHistoryOrder(event.target.value) && setValue(event.target.value)}
            data-testid="form-history-order"
          >
            {FORM_HISTORY_ORDERS.map((option) => (
              <option key={option} value={option}>
                {t(`formHistory.orders.${option}`)}
              </option>
            ))}
          </select>
        </FormField>
        <div className="form-actions">
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button
            type="submit"
            className="button button-primary"
            disabled={save.isPending}
            data-testid="form-history-settings-save"
          >
            {t('common.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
