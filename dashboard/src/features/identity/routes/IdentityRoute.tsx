import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, type FieldPath } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { paths } from '@/app/paths';
import { Alert } from '@/components/Alert';
import { ButtonLink } from '@/components/ButtonLink';
import { Form, FormActions } from '@/components/Form';
import { PageLoader } from '@/components/PageLoader';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { useUser } from '@/lib/auth/get-user';
import { useFormFailure } from '@/lib/forms';
import { useProjectOrLeave } from '@/lib/project-route';
import {
  SOCIAL_NETWORKS,
  useIdentity,
  useTheme,
  useUpdateIdentity,
  useUpdateTheme,
  type SiteIdentity,
  type ThemeAnswer,
  type ThemeWarning,
} from '@/lib/site/identity';
import type { ProjectDetail } from '@/lib/types';
import { IdentityFields } from '@/features/identity/components/IdentityFields';
import { ThemeFields, type FontPickerSlot } from '@/features/identity/components/ThemeFields';
import {
  identityFormSchema,
  type IdentityFormInput,
  type IdentityFormOutput,
} from '@/features/identity/lib/schema';

/** The server's field names (`ApiError.field`) and where they are in the form. */
const SERVER_FIELDS: Partial<Record<string, FieldPath<IdentityFormInput>>> = {
  name: 'business.name',
  description: 'business.description',
  logo: 'business.logo',
  whatsapp: 'business.whatsapp',
  phone: 'business.phone',
  email: 'business.email',
  address: 'business.address',
  hours: 'business.hours',
  // A refused social link is named by its network.
  ...Object.fromEntries(SOCIAL_NETWORKS.map((key) => [key, `business.social.${key}` as const])),
  primary: 'theme.primary',
  accent: 'theme.accent',
  background: 'theme.background',
  text: 'theme.text',
  headingFont: 'theme.headingFont',
  bodyFont: 'theme.bodyFont',
};

interface ScreenProps {
  project: ProjectDetail;
  identity: SiteIdentity;
  theme: ThemeAnswer;
  fontPicker?: FontPickerSlot;
}

function IdentityScreen({ project, identity, theme, fontPicker }: ScreenProps) {
  const { t } = useTranslation();
  const { data: user } = useUser();
  const saveIdentity = useUpdateIdentity(project.id);
  const saveTheme = useUpdateTheme(project.id);
  const form = useForm<IdentityFormInput, unknown, IdentityFormOutput>({
    resolver: zodResolver(identityFormSchema),
    defaultValues: { business: identity, theme: theme.theme },
  });
  const failure = useFormFailure(form, [], SERVER_FIELDS);
  // The warnings of the theme as last saved (the server's word); none before a save.
  const [savedWarnings, setSavedWarnings] = useState<ThemeWarning[] | null>(null);
  const saving = saveIdentity.isPending || saveTheme.isPending;

  const submit = (values: IdentityFormOutput) => {
    failure.clear();
    setSavedWarnings(null);
    saveIdentity.mutate(values.business, {
      onError: failure.report,
      onSuccess: (savedIdentity) =>
        saveTheme.mutate(values.theme, {
          onError: failure.report,
          onSuccess: (savedTheme) => {
            form.reset({ business: savedIdentity, theme: savedTheme.theme });
            setSavedWarnings(savedTheme.warnings);
            toast.success(t('identity.saved'));
          },
        }),
    });
  };

  return (
    <section className="page" data-testid="identity-screen">
      <nav className="breadcrumbs">
        <Link to={paths.home.build()}>{t('projects.title')}</Link> /{' '}
        <Link to={paths.project.build({ projectId: project.id })}>{project.name}</Link> /{' '}
        <span>{t('identity.title')}</span>
      </nav>
      <div className="page-header">
        <h1>{t('identity.title')}</h1>
      </div>
      <p className="muted">{t('identity.intro')}</p>
      <Form form={form} onValid={submit} className="form" testId="identity-form">
        {failure.message && <Alert testId="identity-error">{failure.message}</Alert>}
        <div className="identity-columns">
          <fieldset className="card form" data-testid="identity-section">
            <legend className="section-title">{t('identity.section')}</legend>
            <IdentityFields form={form} uploadPrefix={user ? [user.id, project.id] : [project.id]} />
          </fieldset>
          <fieldset className="card form" data-testid="theme-section">
            <legend className="section-title">{t('identity.theme.title')}</legend>
            <p className="field-hint">{t('identity.theme.intro')}</p>
            <ThemeFields control={form.control} fontPicker={fontPicker} />
            {savedWarnings !== null && savedWarnings.length > 0 && (
              <Alert kind="warning" testId="theme-saved-warnings">
                <p>{t('identity.theme.savedWarnings')}</p>
                <ul>
                  {savedWarnings.map((warning) => (
                    <li key={warning}>{t(`identity.theme.warnings.${warning}`)}</li>
                  ))}
                </ul>
              </Alert>
            )}
          </fieldset>
        </div>
        <FormActions
          before={
            <ButtonLink to={paths.project.build({ projectId: project.id })}>{t('common.back')}</ButtonLink>
          }
          isDisabled={saving}
          testId="identity-save"
        />
      </Form>
    </section>
  );
}

/** "/project/{id}/identity": the site's identity and theme, one form, one save. */
export function IdentityRoute({ fontPicker }: { fontPicker?: FontPickerSlot }) {
  const { projectId } = useParams();
  const id = Number(projectId);
  const project = useProjectOrLeave(id);
  const identity = useIdentity(id);
  const theme = useTheme(id);
  const failed = identity.error ?? theme.error;
  if (failed) return <Alert testId="identity-load-error">{errorMessage(failed)}</Alert>;
  if (!project.data || !identity.data || !theme.data) return <PageLoader />;
  return (
    <IdentityScreen
      project={project.data}
      identity={identity.data}
      theme={theme.data}
      fontPicker={fontPicker}
    />
  );
}
