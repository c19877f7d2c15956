import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { googleSheetsUrl } from '@/lib/api-urls';
import { Alert } from '@/components/Alert';
import { Form, FormActions } from '@/components/Form';
import { Checkbox, CheckboxField, InputField } from '@/components/FormControls';
import { Dialog } from '@/components/ui/Dialog';
import { toast } from '@/components/toast';
import { useZodForm } from '@/lib/forms';
import type { Project } from '@/lib/types';
import { integrationsSchema, type IntegrationsValues } from '@/lib/validation';
import { useUpdateProject } from '@/features/projects/api/update-project';
import { useRotateSheetToken, useSheetLink } from '@/features/projects/api/sheet-token';
import { ActionButton } from '@/components/ActionButton';
import { errorMessage } from '@/lib/api-client';

/**
 * Conversion API settings and the spreadsheet import link; saves straight to the project. With the
 * integration on, the published site loads the pixel and the control plane sends a server-side
 * `Lead` for each form submission (control-plane/src/conversions.rs); the modal says exactly that.
 */
export function IntegrationsModal({ project, onClose }: { project: Project; onClose: () => void }) {
  const { t } = useTranslation();
  const update = useUpdateProject();
  const { form, failure, bind, submitTo } = useZodForm(integrationsSchema, {
    defaultValues: {
      conversionApiEnabled: project.meta.conversionApiEnabled ?? false,
      conversionApiAccessToken: project.meta.conversionApiAccessToken ?? '',
      conversionApiPixelId: project.meta.conversionApiPixelId ?? '',
    },
    serverFields: ['conversionApiAccessToken', 'conversionApiPixelId'],
  });
  const enabled = form.watch('conversionApiEnabled');
  const [phone, setPhone] = useState(false);
  const [gtags, setGtags] = useState(false);

  const sheetLink = useSheetLink(project.id);
  const rotate = useRotateSheetToken();
  const sheetToken = sheetLink.data?.token ?? null;
  const sheetsUrl = sheetToken
    ? `${window.location.origin}${googleSheetsUrl(project.id, sheetToken, { phone, gtags })}`
    : null;

  const submit = (meta: IntegrationsValues) =>
    submitTo(
      update,
      { id: project.id, meta },
      {
        onSuccess: () => {
          toast.success(t('settings.integrations.saved'));
          onClose();
        },
      },
    );

  return (
    <Dialog title={t('settings.integrations.title')} onClose={onClose} testId="integrations-modal">
      <Form form={form} onValid={submit} className="form">
        {failure.message && <Alert testId="integrations-error">{failure.message}</Alert>}
        <h3 className="section-title">{t('settings.integrations.conversionApi')}</h3>
        <p className="muted small" data-testid="conversion-api-help">
          {t('settings.integrations.conversionApiHelp')}
        </p>
        <CheckboxField
          label={t('settings.integrations.enabled')}
          testId="conversion-api-enabled"
          field={form.register('conversionApiEnabled')}
        />
        <InputField
          label={t('settings.integrations.accessToken')}
          id="conversion-token"
          disabled={!enabled}
          {...bind('conversionApiAccessToken')}
        />
        <InputField
          label={t('settings.integrations.pixelId')}
          id="conversion-pixel"
          inputMode="numeric"
          disabled={!enabled}
          {...bind('conversionApiPixelId')}
        />

        <h3 className="section-title">{t('settings.integrations.sheets')}</h3>
        <p className="muted small">{t('settings.integrations.sheetsHelp')}</p>
        <div className="checkbox-row">
          <Checkbox label={t('settings.integrations.phone')} checked={phone} onChange={setPhone} />
          <Checkbox label={t('settings.integrations.gtags')} checked={gtags} onChange={setGtags} />
        </div>
        {sheetsUrl ? (
          <input
            className="code-input"
            readOnly
            value={sheetsUrl}
            onFocus={(event) => event.target.select()}
            data-testid="sheets-link"
            aria-label={t('settings.integrations.sheets')}
          />
        ) : (
          sheetLink.isSuccess && (
            <p className="muted small" data-testid="sheets-none">
              {t('settings.integrations.sheetsNone')}
            </p>
          )
        )}
        {sheetLink.isError && <Alert testId="sheets-error">{errorMessage(sheetLink.error)}</Alert>}
        {rotate.isError && <Alert testId="sheets-rotate-error">{errorMessage(rotate.error)}</Alert>}
        <div className="button-row">
          <ActionButton
            disabled={!sheetLink.isSuccess || rotate.isPending}
            onClick={() =>
              rotate.mutate(project.id, {
                onSuccess: () => {
                  if (sheetToken) toast.success(t('settings.integrations.sheetsRotated'));
                },
              })
            }
            testId="sheets-rotate"
          >
            {sheetToken ? t('settings.integrations.sheetsRotate') : t('settings.integrations.sheetsCreate')}
          </ActionButton>
        </div>

        <FormActions onCancel={onClose} isDisabled={update.isPending} testId="integrations-save" />
      </Form>
    </Dialog>
  );
}
