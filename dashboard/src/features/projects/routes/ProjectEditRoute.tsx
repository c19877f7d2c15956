import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '@/components/ConfirmDialog';
import { Link, useNavigate } from 'react-router';
import { paths } from '@/app/paths';
import { Alert } from '@/components/Alert';
import { Field } from '@/components/Field';
import { PageLoader } from '@/components/PageLoader';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { useUser } from '@/lib/auth/get-user';
import type { ProjectDetail } from '@/lib/types';
import { fieldErrors, projectFormSchema } from '@/lib/validation';
import { useRegenerateToken } from '@/features/projects/api/regenerate-token';
import { useUpdateProject } from '@/features/projects/api/update-project';
import { FaviconUpload } from '@/features/projects/components/FaviconUpload';
import { FontSettings, type FontValues } from '@/features/projects/components/FontSettings';
import { IntegrationsModal } from '@/features/projects/components/IntegrationsModal';
import { useProjectId, useProjectOrLeave } from '@/features/projects/components/use-project-route';

function SettingsForm({ project }: { project: ProjectDetail }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: user } = useUser();
  const update = useUpdateProject();
  const regenerate = useRegenerateToken();
  const [name, setName] = useState(project.name);
  const [slug, setSlug] = useState(project.slug);
  const [description, setDescription] = useState(project.meta.description ?? '');
  const [fonts, setFonts] = useState<FontValues>({
    defaultFont: project.meta.defaultFont ?? null,
    fonts: project.meta.fonts ?? [],
    customFonts: project.meta.customFonts ?? [],
  });
  const [header, setHeader] = useState(project.meta.header ?? '');
  const [footer, setFooter] = useState(project.meta.footer ?? '');
  const [favicon, setFavicon] = useState(project.meta.favicon ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [integrationsOpen, setIntegrationsOpen] = useState(false);
  const [confirmDialog, askConfirm] = useConfirm();
  const uploadPrefix = user ? [user.id, project.id] : [project.id];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = projectFormSchema(project.slug).safeParse({ name, slug, description });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    update.mutate(
      {
        id: project.id,
        name: parsed.data.name,
        slug: parsed.data.slug,
        meta: {
          description: parsed.data.description,
          defaultFont: fonts.defaultFont,
          fonts: fonts.fonts,
          customFonts: fonts.customFonts,
          header,
          footer,
          favicon,
        },
      },
      {
        onSuccess: () => {
          toast.success(t('settings.saved'));
          void navigate(paths.project.build({ projectId: project.id }));
        },
      },
    );
  };

  const error = (key: string) => (errors[key] ? t(errors[key]) : undefined);

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
        <button
          type="button"
          className="button"
          onClick={() => setIntegrationsOpen(true)}
          data-testid="integrations-open"
        >
          {t('settings.integrations.title')}
        </button>
      </div>
      <form
        className="card form settings-form"
        onSubmit={submit}
        noValidate
        data-testid="project-settings-form"
      >
        {update.isError && <Alert testId="settings-error">{errorMessage(update.error)}</Alert>}
        <Field label={t('settings.name')} htmlFor="settings-name" error={error('name')}>
          <input
            id="settings-name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            data-testid="settings-name"
          />
        </Field>
        <Field
          label={t('settings.slug')}
          htmlFor="settings-slug"
          error={error('slug')}
          hint={project.preview_url}
        >
          <input
            id="settings-slug"
            value={slug}
            onChange={(event) => setSlug(event.target.value)}
            data-testid="settings-slug"
          />
        </Field>
        <Field label={t('settings.description')} htmlFor="settings-description">
          <textarea
            id="settings-description"
            rows={3}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            data-testid="settings-description"
          />
        </Field>

        <h2 className="section-title">{t('settings.fonts.title')}</h2>
        <FontSettings value={fonts} onChange={setFonts} uploadPrefix={uploadPrefix} />

        <h2 className="section-title">{t('settings.code')}</h2>
        <Field label={t('settings.header')} htmlFor="settings-header" hint={t('settings.headerHint')}>
          <textarea
            id="settings-header"
            className="code-input"
            rows={5}
            spellCheck={false}
            value={header}
            onChange={(event) => setHeader(event.target.value)}
          />
        </Field>
        <Field label={t('settings.footer')} htmlFor="settings-footer" hint={t('settings.footerHint')}>
          <textarea
            id="settings-footer"
            className="code-input"
            rows={5}
            spellCheck={false}
            value={footer}
            onChange={(event) => setFooter(event.target.value)}
          />
        </Field>

        <Field label={t('settings.favicon')} htmlFor="favicon-file">
          <FaviconUpload value={favicon} onChange={setFavicon} uploadPrefix={uploadPrefix} />
        </Field>

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
            <button
              type="button"
              className="button button-small"
              onClick={() => void regenerateLink()}
              disabled={regenerate.isPending}
              data-testid="regenerate-client-link"
            >
              {t('settings.clientLink.regenerate')}
            </button>
          </div>
          <small className="field-hint">{t('settings.clientLink.help')}</small>
        </div>

        <div className="form-actions">
          <Link to={paths.project.build({ projectId: project.id })} className="button">
            {t('common.cancel')}
          </Link>
          <button
            type="submit"
            className="button button-primary"
            disabled={update.isPending}
            data-testid="settings-save"
          >
            {t('common.save')}
          </button>
        </div>
      </form>
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
