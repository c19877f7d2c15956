import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { googleSheetsUrl } from '@/lib/api-urls';
import { Alert } from '@/components/Alert';
import { FormField } from '@/components/FormField';
import { Dialog } from '@/components/ui/Dialog';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import type { Project } from '@/lib/types';
import { fieldErrors, integrationsSchema, type IntegrationsValues } from '@/lib/validation';
import { useUpdateProject } from '@/features/projects/api/update-project';

/** Conversion API settings and the spreadsheet import link; saves straight to the project. */
export function IntegrationsModal({ project, onClose }: { project: Project; onClose: () => void }) {
  const { t } = useTranslation();
  const update = useUpdateProject();
  const [values, setValues] = useState<IntegrationsValues>({
    conversionApiEnabled: project.meta.conversionApiEnabled ?? false,
    conversionApiAccessToken: project.meta.conversionApiAccessToken ?? '',
    conversionApiPixelId: project.meta.conversionApiPixelId ?? '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [phone, setPhone] = useState(false);
  const [gtags, setGtags] = useState(false);

  const sheetsPath = googleSheetsUrl(project.id, project.token, { phone, gtags });
  const sheetsUrl = `${window.location.origin}${sheetsPath}`;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = integrationsSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    update.mutate(
      { id: project.id, meta: parsed.data },
      {
        onSuccess: () => {
          toast.success(t('settings.integrations.saved'));
          onClose();
        },
      },
    );
  };

  const error = (key: keyof IntegrationsValues) => (errors[key] ? t(errors[key]) : undefined);

  return (
    <Dialog title={t('settings.integrations.title')} onClose={onClose} testId="integrations-modal">
      <form className="form" onSubmit={submit} noValidate>
        {update.isError && <Alert>{errorMessage(update.error)}</Alert>}
        <h3 className="section-title">{t('settings.integrations.conversionApi')}</h3>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={values.conversionApiEnabled}
            onChange={(event) => setValues({ ...values, conversionApiEnabled: event.target.checked })}
            data-testid="conversion-api-enabled"
          />
          {t('settings.integrations.enabled')}
        </label>
        <FormField
          label={t('settings.integrations.accessToken')}
          id="conversion-token"
          error={error('conversionApiAccessToken')}
        >
          <input
            id="conversion-token"
            value={values.conversionApiAccessToken}
            disabled={!values.conversionApiEnabled}
            onChange={(event) => setValues({ ...values, conversionApiAccessToken: event.target.value })}
          />
        </FormField>
        <FormField
          label={t('settings.integrations.pixelId')}
          id="conversion-pixel"
          error={error('conversionApiPixelId')}
        >
          <input
            id="conversion-pixel"
            value={values.conversionApiPixelId}
            disabled={!values.conversionApiEnabled}
            onChange={(event) => setValues({ ...values, conversionApiPixelId: event.target.value })}
          />
        </FormField>

        <h3 className="section-title">{t('settings.integrations.sheets')}</h3>
        <p className="muted small">{t('settings.integrations.sheetsHelp')}</p>
        <div className="checkbox-row">
          <label className="checkbox">
            <input type="checkbox" checked={phone} onChange={(event) => setPhone(event.target.checked)} />
            {t('settings.integrations.phone')}
          </label>
          <label className="checkbox">
            <input type="checkbox" checked={gtags} onChange={(event) => setGtags(event.target.checked)} />
            {t('settings.integrations.gtags')}
          </label>
        </div>
        <input
          className="code-input"
          readOnly
          value={sheetsUrl}
          onFocus={(event) => event.target.select()}
          data-testid="sheets-link"
          aria-label={t('settings.integrations.sheets')}
        />

        <div className="form-actions">
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={update.isPending}>
            {t('common.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
