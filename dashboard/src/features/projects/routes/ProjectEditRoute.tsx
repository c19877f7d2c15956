import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '@/components/ConfirmDialog';
import { z } from 'zod';
import { Link, useNavigate } from 'react-router';
import { paths } from '@/app/paths';
import { Alert } from '@/components/Alert';
import { Form, FormActions } from '@/components/Form';
import { FormField } from '@/components/FormField';
import { PageLoader } from '@/components/PageLoader';
import { toast } from '@/components/toast';
import { ApiError, errorMessage } from '@/lib/api-client';
import { errorText, setServerError } from '@/lib/forms';
import { useUser } from '@/lib/auth/get-user';
import type { ProjectDetail } from '@/lib/types';
import { projectFormSchema } from '@/lib/validation';
import { useRegenerateToken } from '@/features/projects/api/regenerate-token';
import { useUpdateProject } from '@/features/projects/api/update-project';
import { FaviconUpload } from '@/features/projects/components/FaviconUpload';
import { FontSettings, type FontValues } from '@/features/projects/components/FontSettings';
import { IntegrationsModal } from '@/features/projects/components/IntegrationsModal';
import { useProjectId, useProjectOrLeave } from '@/features/projects/components/use-project-route';
import { ButtonLink } from '@/components/ButtonLink';
import { ActionButton } from '@/components/ActionButton';

/** The settings form: the checked fields of `projectFormSchema` and the rest as they are. */
function settingsSchema(currentSlug: string) {
  return projectFormSchema(currentSlug).extend({
    fonts: z.custom<FontValues>(),
    header: z.string(),
    footer: z.string(),
    favicon: z.string(),
    robots: z.string(),
  });
}
type SettingsValues = z.input<ReturnType<typeof settingsSchema>>;
const SETTINGS_FIELDS = ['name', 'slug', 'description', 'header', 'footer', 'favicon', 'robots'] as const;

function SettingsForm({ project }: { project: ProjectDetail }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: user } = useUser();
  const update = useUpdateProject();
  const regenerate = useRegenerateToken();
  const form = useForm<SettingsValues>({
    resolver: zodResolver(settingsSchema(project.slug)),
    defaultValues: {
      name: project.name,
      slug: project.slug,
      description: project.meta.description ?? '',
      fonts: {
        defaultFont: project.meta.defaultFont ?? null,
        fonts: project.meta.fonts ?? [],
        customFonts: project.meta.customFonts ?? [],
      },
      header: project.meta.header ?? '',
      footer: project.meta.footer ?? '',
      favicon: project.meta.favicon ?? '',
      robots: project.meta.robots ?? '',
    },
  });
  const { errors } = form.formState;
  const [integrationsOpen, setIntegrationsOpen] = useState(false);
  const [confirmDialog, askConfirm] = useConfirm();
  const uploadPrefix = user ? [user.id, project.id] : [project.id];
  /** The site's own code for its pages' head or end, in a code textarea. */
  const codeField = (name: 'header' | 'footer', label: string, hint: string) => (
    <FormField label={label} id={`settings-${name}`} description={hint}>
      {(control) => (
        <textarea {...control} className="code-input" rows={5} spellCheck={false} {...form.register(name)} />
      )}
    </FormField>
  );

  const submit = (values: SettingsValues) => {
    const { name, slug, description, fonts, header, footer, favicon, robots } = settingsSchema(
      project.slug,
    ).parse(values);
    update.mutate(
      {
        id: project.id,
        name,
        slug,
        meta: {
          description,
          defaultFont: fonts.defaultFont,
          fonts: fonts.fonts,
          customFonts: fonts.customFonts,
          header,
          footer,
          favicon,
          robots,
        },
      },
      {
        onSuccess: () => {
          toast.success(t('settings.saved'));
          void navigate(paths.project.build({ projectId: project.id }));
        },
        onError: (failure) => setServerError(form, failure, SETTINGS_FIELDS),
      },
    );
  };
  const failure = update.error;
  const onField = failure instanceof ApiError && SETTINGS_FIELDS.some((name) => name === failure.field);

  const regenerateLink = async () => {
    const confirmed = await askConfirm({
      title: t('kit.confirm.regenerateLink'),
      message: t('kit.confirm.regenerateLinkMessage'),
      confirmLabel: t('kit.confirm.regenerateLinkAction'),
      destructive: true,
    });
    if (!confirmed) return;
    regenerate.mutate(project.id, {
      onSuccess: () => toast.success(t('settings.clientLink.done')),
      onError: (failure) => toast.error(errorMessage(failure)),
    });
  };

  return (
    <section className="page">
      <nav className="breadcrumbs">
        <Link to={paths.home.build()}>{t('projects.title')}</Link> /{' '}
        <Link to={paths.project.build({ projectId: project.id })}>{project.name}</Link> /{' '}
        <span>{t('settings.title')}</span>
      </nav>
      <div className="page-header">
        <h1>{t('settings.title')}</h1>
        <ActionButton onClick={() => setIntegrationsOpen(true)} testId="integrations-open">
          {t('settings.integrations.title')}
        </ActionButton>
      </div>
      <Form form={form} onValid={submit} className="card form settings-form" testId="project-settings-form">
        {update.isError && !onField && <Alert testId="settings-error">{errorMessage(update.error)}</Alert>}
        <FormField label={t('settings.name')} id="settings-name" error={errorText(t, errors.name)}>
          {(control) => <input {...control} {...form.register('name')} data-testid="settings-name" />}
        </FormField>
        <FormField
          label={t('settings.slug')}
          id="settings-slug"
          error={errorText(t, errors.slug)}
          description={project.preview_url}
        >
          {(control) => <input {...control} {...form.register('slug')} data-testid="settings-slug" />}
        </FormField>
        <FormField label={t('settings.description')} id="settings-description">
          {(control) => (
            <textarea
              {...control}
              rows={3}
              {...form.register('description')}
              data-testid="settings-description"
            />
          )}
        </FormField>

        <h2 className="section-title">{t('settings.fonts.title')}</h2>
        <Controller
          control={form.control}
          name="fonts"
          render={({ field }) => (
            <FontSettings value={field.value} onChange={field.onChange} uploadPrefix={uploadPrefix} />
          )}
        />

        <h2 className="section-title">{t('settings.code')}</h2>
        {codeField('header', t('settings.header'), t('settings.headerHint'))}
        {codeField('footer', t('settings.footer'), t('settings.footerHint'))}

        <FormField label={t('settings.favicon')} id="favicon-file" error={errorText(t, errors.favicon)}>
          <Controller
            control={form.control}
            name="favicon"
            render={({ field }) => (
              <FaviconUpload value={field.value} onChange={field.onChange} uploadPrefix={uploadPrefix} />
            )}
          />
        </FormField>

        <h2 className="section-title">{t('settings.seo')}</h2>
        <FormField
          label={t('settings.robots')}
          id="settings-robots"
          description={t('settings.robotsHint')}
          error={errorText(t, errors.robots)}
        >
          {(control) => (
            <textarea
              {...control}
              className="code-input"
              rows={5}
              spellCheck={false}
              placeholder={'User-agent: *\nAllow: /'}
              {...form.register('robots')}
              data-testid="settings-robots"
            />
          )}
        </FormField>

        <h2 className="section-title">{t('settings.clientLink.title')}</h2>
        <div className="field">
          <div className="client-link-row">
            <a
              href={paths.clientAdmin.build({}, { token: project.token })}
              target="_blank"
              rel="noreferrer"
              data-testid="client-link"
            >
              {paths.clientAdmin.build({}, { token: project.token })}
            </a>
            <ActionButton
              size="small"
              onClick={() => void regenerateLink()}
              disabled={regenerate.isPending}
              testId="regenerate-client-link"
            >
              {t('settings.clientLink.regenerate')}
            </ActionButton>
          </div>
          <small className="field-hint">{t('settings.clientLink.help')}</small>
        </div>

        <FormActions
          before={
            <ButtonLink to={paths.project.build({ projectId: project.id })}>{t('common.cancel')}</ButtonLink>
          }
          isDisabled={update.isPending}
          testId="settings-save"
        />
      </Form>
      {integrationsOpen && <IntegrationsModal project={project} onClose={() => setIntegrationsOpen(false)} />}
      {confirmDialog}
    </section>
  );
}

/** "/project/{id}/edit". */
export function ProjectEditRoute() {
  const id = useProjectId();
  const project = useProjectOrLeave(id);
  if (!project.data) return <PageLoader />;
  return <SettingsForm project={project.data} />;
}
