import { ConfigureDomainModal } from '@/features/domains/components/ConfigureDomainModal';
import { DomainControls } from '@/features/domains/components/DomainControls';
import { DeployHistory } from '@/features/publishing/components/DeployHistory';
import { PublishMenu } from '@/features/publishing/components/PublishMenu';
import { PublishStateButton } from '@/features/publishing/components/PublishStateButton';
import { ProjectOverviewRoute } from '@/features/projects/routes/ProjectOverviewRoute';
import type { ProjectDetail } from '@/lib/types';

const state = (project: ProjectDetail) => (
  <span className="button-row">
    <PublishStateButton project={project} />
    <PublishMenu
      project={project}
      domainModal={(onClose) => <ConfigureDomainModal project={project} onClose={onClose} />}
    />
  </span>
);
const sections = (project: ProjectDetail) => <DeployHistory project={project} />;
const domain = (project: ProjectDetail) => <DomainControls project={project} />;

/**
 * "/project/{id}" as the app shows it: the projects feature's overview with the publishing
 * feature's state button (Publish / Unpublish modals), its publish dropdown (publish,
 * unpublish, domain) and deploy history, and the domains feature's controls beside the domain
 * (Configure domain / Remove domain modals, certificate).
 */
export function ProjectOverviewPage() {
  return <ProjectOverviewRoute state={state} domain={domain} sections={sections} />;
}
