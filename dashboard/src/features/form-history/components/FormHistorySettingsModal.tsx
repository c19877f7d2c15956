import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Alert } from '@/components/Alert';
import { Form, FormActions } from '@/components/Form';
import { SelectField } from '@/components/FormControls';
import { Dialog } from '@/components/ui/Dialog';
import { toast } from '@/components/toast';
import { useZodForm } from '@/lib/forms';
import type { PageSummary } from '@/lib/types';
import { useUpdateFormSettings } from '@/features/form-history/api/update-form-settings';
import { FORM_HISTORY_ORDERS, type FormHistoryOrder } from '@/features/form-history/types';
import { FormEmailSettings } from './FormEmailSettings';

/**
 * The order of the list (one of the two the server's meta check accepts) and the thank-you page:
 * a page id as the select holds it, or '' for none.
 */
const settingsSchema = z.object({
  formHistoryOrderBy: z.enum(FORM_HISTORY_ORDERS),
  formThankYouPage: z.string().regex(/^\d*$/),
});

interface Props {
  projectId: number;
  order: FormHistoryOrder;
  /** The project's static pages: the thank-you page's choices. */
  pages: PageSummary[];
  thankYouPage: number | null;
  onClose: () => void;
}

/**
 * "Settings for form history" (spec §2 modals): where notifications go, the order of the list, and
 * where a visitor lands after sending a form.
 */
export function FormHistorySettingsModal({ projectId, order, pages, thankYouPage, onClose }: Props) {
  const { t } = useTranslation();
  const save = useUpdateFormSettings();
  const { form, failure, bind, submitTo } = useZodForm(settingsSchema, {
    defaultValues: {
      formHistoryOrderBy: order,
      formThankYouPage: thankYouPage === null ? '' : String(thankYouPage),
    },
    serverFields: ['formHistoryOrderBy', 'formThankYouPage'],
  });

  const submit = ({ formHistoryOrderBy, formThankYouPage }: z.output<typeof settingsSchema>) =>
    submitTo(
      save,
      {
        projectId,
        formHistoryOrderBy,
        formThankYouPage: formThankYouPage === '' ? null : Number(formThankYouPage),
      },
      {
        onSuccess: () => {
          toast.success(t('formHistory.settingsSaved'));
          onClose();
        },
      },
    );

  return (
    <Dialog title={t('formHistory.settingsTitle')} onClose={onClose} testId="form-history-settings">
      <FormEmailSettings projectId={projectId} />
      <Form form={form} onValid={submit} className="form">
        {failure.message && <Alert testId="form-history-settings-error">{failure.message}</Alert>}
        <SelectField label={t('formHistory.orderBy')} id="form-history-order" {...bind('formHistoryOrderBy')}>
          {FORM_HISTORY_ORDERS.map((option) => (
            <option key={option} value={option}>
              {t(`formHistory.orders.${option}`)}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={t('formHistory.thankYou.label')}
          id="form-thank-you-page"
          description={t('formHistory.thankYou.hint')}
          {...bind('formThankYouPage')}
        >
          <option value="">{t('formHistory.thankYou.none')}</option>
          {pages.map((page) => (
            <option key={page.id} value={String(page.id)}>
              {page.name}
            </option>
          ))}
        </SelectField>
        <FormActions onCancel={onClose} isDisabled={save.isPending} testId="form-history-settings-save" />
      </Form>
    </Dialog>
  );
}
