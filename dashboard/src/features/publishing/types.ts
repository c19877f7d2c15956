/** Shapes of the publishing API (publish, unpublish, deploy history, rollback). */
import type { ErrorParams } from '@/lib/api-client';
import type { AddressFields } from '@/lib/domain-status';
import type { Project } from '@/lib/types';

/** What the publish dialogs and buttons need of a project: who it is and where it answers. */
export type PublishTarget = Pick<Project, 'id' | 'name' | 'token' | 'is_published'> & AddressFields;

export type DeployStatus = 'building' | 'ready' | 'failed';

/** One immutable deploy of a project: what a publish built, live or not. */
export interface Deploy {
  id: number;
  project_id: number;
  status: DeployStatus;
  manifest_key: string;
  /** Number of files the deploy wrote. */
  files: number;
  /** Total size of those files. */
  bytes: number;
  /** Why a failed build failed: the server's English text, its code (`errors.<code>`) and values. */
  error: string | null;
  error_code?: string | null;
  error_params?: ErrorParams;
  created_by: number | null;
  created_at: string;
  finished_at: string | null;
}

/** GET /api/projects/{id}/deploys: newest first, with the deploy the site serves. */
export interface DeployList {
  data: Deploy[];
  active_deploy_id: number | null;
}

/** POST /api/publish_v2/{id} and POST …/deploys/{id}/activate: the live deploy and its address. */
export interface PublishResult {
  deploy: Deploy;
  url: string;
  /**
   * What did not stop the publish but the owner should know (a web font that could not be
   * fetched): a code the catalogue translates (`errors.<code>`), the server's English text and
   * the values it names.
   */
  warnings?: PublishWarning[];
}

export interface PublishWarning {
  code: string;
  message: string;
  params?: ErrorParams;
}

/** One step of a build, as POST /api/publish_v2/{id}/events reports it while it runs. */
export type PublishStep =
  | { step: 'started'; deploy_id: number; pages: number }
  | { step: 'fonts'; faces: number }
  | { step: 'page'; index: number; total: number; name: string }
  | { step: 'assets'; files: number; bytes: number }
  | { step: 'live' };

/** POST /api/unpublish/{id}. */
export interface UnpublishResult {
  is_published: false;
}
