import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { paths } from '@/app/paths';
import { useFormat } from '@/lib/format';
import type { Project } from '@/lib/types';
import { DuplicateMenu } from './DuplicateMenu';
import { StateBadge } from './StateBadge';
import { ButtonLink, ExternalButtonLink } from '@/components/ButtonLink';

interface ProjectItemProps {
  project: Project;
  view: 'grid' | 'list';
}

/**
 * The card's picture: the published home page, as the server pictured it after the last
 * publish (`thumbnail`, an authorized address), else (never published, no Chromium on the
 * server, or a picture that does not load) the name's first letter.
 */
function ProjectThumb({ project }: { project: Project }) {
  const [failed, setFailed] = useState<string | null>(null);
  const src = project.thumbnail;
  if (src && failed !== src) {
    return (
      <img src={src} alt="" loading="lazy" data-testid="project-screenshot" onError={() => setFailed(src)} />
    );
  }
  return <span data-testid="project-letter">{project.name.slice(0, 1).toUpperCase()}</span>;
}

/** One project in the dashboard, as a card (grid) or a row (list). */
export function ProjectItem({ project, view }: ProjectItemProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const actions = (
    <div className="project-actions">
      <ButtonLink
        to={paths.project.build({ projectId: project.id })}
        variant="primary"
        size="small"
        testId="manage-link"
      >
        {t('projects.manage')}
      </ButtonLink>
      <DuplicateMenu project={project} />
      <ExternalButtonLink href={project.preview_url} size="small" testId="preview-link">
        {t('projects.preview')}
      </ExternalButtonLink>
    </div>
  );

  if (view === 'list') {
    return (
      <li className="project-row" data-testid="project-item" data-project-id={project.id}>
        <div className="project-row-main">
          <strong data-testid="project-name">{project.name}</strong>
          <span className="muted">{project.domain ?? project.slug}</span>
        </div>
        <StateBadge published={project.is_published} />
        <span className="muted">{fmt.date(project.updated_at)}</span>
        {actions}
      </li>
    );
  }

  return (
    <li className="card project-card" data-testid="project-item" data-project-id={project.id}>
      <div className="project-thumb">
        <ProjectThumb project={project} />
      </div>
      <div className="project-card-body">
        <div className="project-card-title">
          <strong data-testid="project-name">{project.name}</strong>
          <StateBadge published={project.is_published} />
        </div>
        <span className="muted">{project.domain ?? project.slug}</span>
        <span className="muted small">{t('projects.updatedAt', { date: fmt.date(project.updated_at) })}</span>
      </div>
      {actions}
    </li>
  );
}
