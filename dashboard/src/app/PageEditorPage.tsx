import { ConfigureDomainModal } from '@/features/domains/components/ConfigureDomainModal';
import { PublishMenu } from '@/features/publishing/components/PublishMenu';
import { PublishModal } from '@/features/publishing/components/PublishModal';
import {
  PageEditorRoute,
  type DeploySlot,
  type PublishMenuSlot,
} from '@/features/pages/routes/PageEditorRoute';

const deploy: DeploySlot = (project, onClose) => <PublishModal project={project} onClose={onClose} />;
const publishMenu: PublishMenuSlot = (project, blocked) => (
  <PublishMenu
    project={project}
    publishDisabled={blocked}
    domainModal={(onClose) => <ConfigureDomainModal project={project} onClose={onClose} />}
  />
);

/**
 * "/project/{id}/{page_id}" as the app shows it: the pages feature's editor with the
 * publishing feature's Publish modal behind Deploy, and its publish dropdown (publish,
 * unpublish, and the domains feature's domain modal) in the top bar. Loaded lazily by the
 * router, so the editor, its canvas and its libraries stay out of the first load.
 */
export function PageEditorPage() {
  return <PageEditorRoute deploy={deploy} publishMenu={publishMenu} />;
}
