import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { paths } from '@/app/paths';
import { useFormat } from '@/lib/format';
import type { Project } from '@/lib/types';
import { DuplicateMenu } from './DuplicateMenu';
import { StateBadge } from './StateBadge';
import { ButtonLink, ExternalButtonLink } from '@/components/ButtonLink';
import { NextDomainCheck } from '@/components/DomainStatusNote';
import { domainStatus } from '@/lib/domain-status';

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

/** The host of an address, for a short line (`https://loja.vitrine.site/` → `loja.vitrine.site`). */
function host(address: string): string {
  try {
    return new URL(address).host;
  } catch {
    return address;
  }
}

/**
 * Where the site is: its domain (or its preview slug); while the custom domain waits for its DNS
 * records, that it does, that the preview address is live meanwhile, and when the server checks
 * the domain next.
 */
function SiteAddress({ project }: { project: Project }) {
  const { t } = useTranslation();
  const status = domainStatus(project);
  if (status.kind !== 'pending') {
    return (
      <span className="muted" data-testid="project-address">
        {project.domain ?? project.slug}
      </span>
    );
  }
  return (
    <span className="project-domain-pending" data-testid="project-address" data-pending="true">
      <span className="badge badge-muted" data-testid="project-domain-waiting">
        {t('domains.waitingDns', { domain: status.domain })}
      </span>
      <span className="small" data-testid="project-live-at">
        {t('domains.liveAt', { address: host(status.live) })}
      </span>
      <NextDomainCheck check={status.check} testId="project-next-check" />
    </span>
  );
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
          <SiteAddress project={project} />
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
        <SiteAddress project={project} />
        <span className="muted small">{t('projects.updatedAt', { date: fmt.date(project.updated_at) })}</span>
      </div>
      {actions}
    </li>
  );
}
