import { Controller, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormField } from '@/components/FormField';
import { InputField, TextAreaField } from '@/components/FormControls';
import { ImageUpload } from '@/components/ImageUpload';
import { RemoveButton } from '@/components/ItemButtons';
import { errorAt } from '@/lib/forms';
import { SOCIAL_NETWORKS } from '@/lib/site/identity';
import { MAX_DESCRIPTION, MAX_HOURS, type IdentityFormInput } from '@/features/identity/lib/schema';

interface Props {
  form: UseFormReturn<IdentityFormInput, unknown, unknown>;
  /** Upload folder of the logo: [user_id, project_id]. */
  uploadPrefix: (string | number)[];
}

/** The business: name, description, logo, how to reach it, when it opens, its social networks. */
export function IdentityFields({ form, uploadPrefix }: Props) {
  const { t } = useTranslation();
  const { errors } = form.formState;
  const bind = (name: Parameters<typeof form.register>[0]) => ({
    field: form.register(name),
    error: errorAt(errors, name),
  });

  return (
    <>
      <InputField
        label={t('identity.fields.name')}
        id="identity-name"
        required
        description={t('identity.fields.nameHint')}
        {...bind('business.name')}
      />
      <TextAreaField
        label={t('identity.fields.description')}
        id="identity-description"
        rows={3}
        description={t('identity.fields.descriptionHint', { max: MAX_DESCRIPTION })}
        {...bind('business.description')}
      />
      <Controller
        control={form.control}
        name="business.logo"
        render={({ field }) => (
          <FormField label={t('identity.fields.logo')} labelAs="text" testId="identity-logo">
            <div className="identity-logo">
              {field.value ? (
                <img src={field.value} alt={t('identity.fields.logo')} className="identity-logo-preview" />
              ) : (
                <span className="identity-logo-preview empty" aria-hidden="true" />
              )}
              <ImageUpload
                prefix={uploadPrefix}
                label={field.value ? t('identity.fields.logoChange') : t('identity.fields.logoUpload')}
                onUploaded={(url) => field.onChange(url)}
                testId="identity-logo-upload"
              />
              {field.value && <RemoveButton onRemove={() => field.onChange('')} />}
            </div>
          </FormField>
        )}
      />
      <div className="two-columns">
        <InputField
          label={t('identity.fields.whatsapp')}
          id="identity-whatsapp"
          inputMode="tel"
          placeholder="(11) 98765-4321"
          description={t('identity.fields.whatsappHint')}
          {...bind('business.whatsapp')}
        />
        <InputField
          label={t('identity.fields.phone')}
          id="identity-phone"
          type="tel"
          placeholder="(11) 3333-4444"
          {...bind('business.phone')}
        />
        <InputField
          label={t('identity.fields.email')}
          id="identity-email"
          type="email"
          placeholder="contato@exemplo.com.br"
          {...bind('business.email')}
        />
        <InputField
          label={t('identity.fields.address')}
          id="identity-address"
          {...bind('business.address')}
        />
      </div>
      <TextAreaField
        label={t('identity.fields.hours')}
        id="identity-hours"
        rows={3}
        placeholder={t('identity.fields.hoursPlaceholder')}
        description={t('identity.fields.hoursHint', { max: MAX_HOURS })}
        {...bind('business.hours')}
      />
      <h3 className="section-title">{t('identity.fields.social')}</h3>
      <div className="two-columns">
        {SOCIAL_NETWORKS.map((network) => (
          <InputField
            key={network}
            label={t(`identity.social.${network}`)}
            id={`identity-social-${network}`}
            type="url"
            placeholder="https://"
            {...bind(`business.social.${network}`)}
          />
        ))}
      </div>
    </>
  );
}
