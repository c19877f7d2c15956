/** Shapes of the publishing API (publish, unpublish, deploy history, rollback), from its document. */
import type { AddressFields } from '@/lib/domain-status';
import type { Project } from '@/lib/types';

export type {
  Deploy,
  DeployList,
  DeployStatus,
  PublishResult,
  PublishStep,
  PublishWarning,
  UnpublishResult,
} from '@/lib/types';

/** What the publish dialogs and buttons need of a project: who it is and where it answers. */
export type PublishTarget = Pick<Project, 'id' | 'name' | 'token' | 'is_published'> & AddressFields;
