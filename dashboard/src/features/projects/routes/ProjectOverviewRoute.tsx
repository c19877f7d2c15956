import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/PageHeader';
import { Link, Navigate, useNavigate } from 'react-router';
import { paths } from '@/app/paths';
import { useConfirm } from '@/components/ConfirmDialog';
import { PageLoader } from '@/components/PageLoader';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { useUser } from '@/lib/auth/get-user';
import { useFormat } from '@/lib/format';
import type { PageSummary, ProjectDetail } from '@/lib/types';
import { useDeletePage } from '@/features/projects/api/delete-page';
import { useDeleteProject } from '@/features/projects/api/delete-project';
import { NewPageDialog } from '@/features/projects/components/NewPageDialog';
import { HstsToggle } from '@/features/projects/components/HstsToggle';
import { PageList } from '@/features/projects/components/PageList';
import { SaveTemplateModal } from '@/features/projects/components/SaveTemplateModal';
import { StateBadge } from '@/features/projects/components/StateBadge';
import { useProjectId, useProjectOrLeave } from '@/features/projects/components/use-project-route';
import { ButtonLinks, ExternalButtonLink } from '@/components/ButtonLink';
import { ActionButton } from '@/components/ActionButton';

/**
 * What other features add to the overview; the app composes them (features don't import each
 * other). Without them the overview shows a plain state badge.
 */
export interface OverviewSlots {
  /** Renders the project's state (the publishing feature makes it open Publish / Unpublish). */
  state?: (project: ProjectDetail) => ReactNode;
  /** Shown beside the domain (the domains feature: verified state, certificate, Configure / Remove). */
  domain?: (project: ProjectDetail) => ReactNode;
  /** Sections shown below the details (the deploy history). */
  sections?: (project: ProjectDetail) => ReactNode;
}

/**
 * The page "Editar projeto" opens in the editor: the home page, else the first static page, else
 * any page; none for a project without pages.
 */
export function editorPage(pages: readonly PageSummary[]): PageSummary | undefined {
  return pages.find((page) => page.is_home) ?? pages.find((page) => page.table_id === null) ?? pages[0];
}

/**
 * The header's links to the project's screens after "Editar projeto" (the editor): its
 * settings, under their own name, and the rest (the form history's only where it has one).
 */
const PROJECT_LINKS = [
  { path: paths.projectEdit, testId: 'settings-link', label: 'project.settings' },
  { path: paths.projectIdentity, testId: 'identity-link', label: 'identity.link' },
  { path: paths.projectTables, testId: 'collections-link', label: 'project.collections' },
  { path: paths.projectRedirects, testId: 'redirects-link', label: 'project.redirects' },
  { path: paths.projectFormHistory, testId: 'form-history-link', label: 'project.formHistory' },
  { path: paths.projectAnalytics, testId: 'analytics-link', label: 'project.analytics.link' },
] as const;

function Overview({ project, slots }: { project: ProjectDetail; slots: OverviewSlots }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const navigate = useNavigate();
  const { data: user } = useUser();
  const deletePage = useDeletePage();
  const deleteProject = useDeleteProject();
  const [savingTemplate, setSavingTemplate] = useState(false);
  const [creatingPage, setCreatingPage] = useState(false);
  const [confirmDialog, askConfirm] = useConfirm();

  const staticPages = project.pages.filter((page) => page.table_id === null);
  const collectionPages = project.pages.filter((page) => page.table_id !== null);
  // Forms post to a published site on any of its hosts, the preview address included, so a
  // published project has a form history whatever its domain (the spec showed the link only with
  // a custom domain); a project with a domain keeps it while unpublished.
  const hasFormHistory = Boolean(project.is_published || project.domain);
  const home = editorPage(project.pages);
  const links = [
    ...(home
      ? [
          {
            to: paths.page.build({ projectId: project.id, pageId: home.id }),
            testId: 'edit-project-link',
            label: t('project.edit'),
            variant: 'primary' as const,
          },
        ]
      : []),
    ...PROJECT_LINKS.filter((link) => hasFormHistory || link.path !== paths.projectFormHistory).map(
      ({ path, label, ...link }) => ({ ...link, to: path.build({ projectId: project.id }), label: t(label) }),
    ),
  ];

  const removePage = async (page: PageSummary) => {
    const confirmed = await askConfirm({
      title: t('kit.confirm.deletePage', { name: page.name }),
      message: t('kit.confirm.deletePageMessage'),
      confirmLabel: t('common.delete'),
      destructive: true,
    });
    if (!confirmed) return;
    deletePage.mutate(
      { id: page.id, projectId: project.id },
      {
        onSuccess: () => toast.success(t('pages.deleted')),
        onError: (error) => toast.error(errorMessage(error)),
      },
    );
  };

  const removeProject = async () => {
    const confirmed = await askConfirm({
      title: t('kit.confirm.deleteProject', { name: project.name }),
      message: t('kit.confirm.deleteProjectMessage'),
      confirmLabel: t('kit.confirm.deleteProjectAction'),
      destructive: true,
    });
    if (!confirmed) return;
    deleteProject.mutate(project.id, {
      onSuccess: () => {
        toast.success(t('project.deleted'));
        void navigate(paths.home.build(), { replace: true });
      },
      onError: (error) => toast.error(errorMessage(error)),
    });
  };

  return (
    <section className="page" data-testid="project-overview" data-project-id={project.id}>
      <nav className="breadcrumbs">
        <Link to={paths.home.build()}>{t('projects.title')}</Link> / <span>{project.name}</span>
      </nav>
      <PageHeader title={project.name} titleTestId="project-title" as="div">
        <ButtonLinks links={links} />
        {project.tables.length > 0 && (
          <ExternalButtonLink
            href={paths.clientAdmin.build({}, { token: project.token })}
            testId="client-admin-link"
          >
            {t('project.clientAdmin')}
          </ExternalButtonLink>
        )}
      </PageHeader>

      <dl className="card details" data-testid="project-details">
        <div>
          <dt>{t('project.domain')}</dt>
          <dd>
            <span data-testid="project-domain">
              {project.domain ?? <span className="muted">{t('project.noDomain')}</span>}
            </span>
            {slots.domain?.(project)}
          </dd>
        </div>
        {project.domain && project.meta.verified && project.meta.verifiedDomain === project.domain && (
          <div>
            <dt>{t('project.hsts.title')}</dt>
            <dd>
              <HstsToggle project={project} />
            </dd>
          </div>
        )}
        <div>
          <dt>{t('project.previewSlug')}</dt>
          <dd>
            <a href={project.preview_url} target="_blank" rel="noreferrer" data-testid="project-slug">
              {project.slug}
            </a>
          </dd>
        </div>
        <div>
          <dt>{t('project.description')}</dt>
          <dd data-testid="project-description">
            {project.meta.description || <span className="muted">—</span>}
          </dd>
        </div>
        <div>
          <dt>{t('project.state')}</dt>
          <dd>{slots.state ? slots.state(project) : <StateBadge published={project.is_published} />}</dd>
        </div>
        <div>
          <dt>{t('project.createdAt')}</dt>
          <dd>{fmt.dateTime(project.created_at)}</dd>
        </div>
        <div>
          <dt>{t('project.updatedAt')}</dt>
          <dd>{fmt.dateTime(project.updated_at)}</dd>
        </div>
      </dl>

      {slots.sections?.(project)}

      <div className="page-header">
        <h2>{t('pages.title')}</h2>
        <ActionButton variant="primary" onClick={() => setCreatingPage(true)} testId="new-page">
          + {t('pages.new')}
        </ActionButton>
      </div>
      <div className="two-columns">
        <PageList
          projectId={project.id}
          pages={staticPages}
          title={t('pages.static')}
          emptyText={t('pages.noStatic')}
          onDelete={(page) => void removePage(page)}
          testId="static-pages"
        />
        <PageList
          projectId={project.id}
          pages={collectionPages}
          title={t('pages.collection')}
          emptyText={t('pages.noCollection')}
          onDelete={(page) => void removePage(page)}
          testId="collection-pages"
        />
      </div>

      <div className="danger-zone">
        {user?.is_admin && (
          <ActionButton onClick={() => setSavingTemplate(true)} testId="save-template">
            {t('templates.saveAs')}
          </ActionButton>
        )}
        <ActionButton
          variant="danger"
          onClick={() => void removeProject()}
          disabled={deleteProject.isPending}
          testId="delete-project"
        >
          {t('project.delete')}
        </ActionButton>
      </div>
      {savingTemplate && <SaveTemplateModal project={project} onClose={() => setSavingTemplate(false)} />}
      {creatingPage && (
        <NewPageDialog
          projectId={project.id}
          collections={project.tables}
          onCreated={(page) => void navigate(paths.page.build({ projectId: project.id, pageId: page.id }))}
          onClose={() => setCreatingPage(false)}
        />
      )}
      {confirmDialog}
    </section>
  );
}

/** "/project/{id}". */
export function ProjectOverviewRoute(slots: OverviewSlots) {
  const id = useProjectId();
  const project = useProjectOrLeave(id);
  if (!Number.isInteger(id)) return <Navigate to={paths.home.build()} replace />;
  if (!project.data) return <PageLoader />;
  return <Overview project={project.data} slots={slots} />;
}
