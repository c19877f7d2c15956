import { PublishModal } from '@/features/publishing/components/PublishModal';
import { PageEditorRoute, type DeploySlot } from '@/features/pages/routes/PageEditorRoute';

const deploy: DeploySlot = (project, onClose) => <PublishModal project={project} onClose={onClose} />;

/**
 * "/project/{id}/{page_id}" as the app shows it: the pages feature's editor with the
 * publishing feature's Publish modal behind Deploy. Loaded lazily by the router, so the editor,
 * its canvas and its libraries stay out of the first load.
 */
export function PageEditorPage() {
  return <PageEditorRoute deploy={deploy} />;
}
