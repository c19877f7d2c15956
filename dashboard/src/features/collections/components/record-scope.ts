import { paths } from '@/app/paths';
import { tableExportUrl } from '@/lib/api-urls';
import type { ProjectDetail, TableSummary } from '@/lib/types';

/**
 * Where the records screens live: in the owner's dashboard (/project/{id}/table/{id}/browse…)
 * or in the client admin panel (/admin/table/{id}…). The list and the form take one of these
 * instead of building links themselves.
 */
export interface RecordScope {
  kind: 'owner' | 'client';
  projectId: number;
  projectName: string;
  /** Breadcrumb target of the project name. */
  projectLink: string;
  /** The project's collections (relation pickers, breadcrumbs). */
  tables: TableSummary[];
  listLink: (tableId: number) => string;
  newLink: (tableId: number) => string;
  editLink: (tableId: number, postId: number) => string;
  /**
   * The export's address; `bom`: a CSV that Excel reads as UTF-8. The client panel's must be
   * fetched with its header (`kind === 'client'`), not followed as a link.
   */
  exportLink: (tableId: number, format: 'csv' | 'json', options?: { bom?: boolean }) => string;
  /** Upload folder of files of a record: [user_id, project_id, table_id]. */
  uploadPrefix: (tableId: number) => (string | number)[];
}

export function ownerScope(project: ProjectDetail, userId: number | undefined): RecordScope {
  return {
    kind: 'owner',
    projectId: project.id,
    projectName: project.name,
    projectLink: paths.project.build({ projectId: project.id }),
    tables: project.tables,
    listLink: (tableId) => paths.projectTableData.build({ projectId: project.id, tableId }),
    newLink: (tableId) => paths.projectRecordNew.build({ projectId: project.id, tableId }),
    editLink: (tableId, postId) => paths.projectRecordEdit.build({ projectId: project.id, tableId, postId }),
    exportLink: (tableId, format, options) => tableExportUrl(tableId, format, options),
    uploadPrefix: (tableId) => (userId === undefined ? [project.id, tableId] : [userId, project.id, tableId]),
  };
}

export function clientScope(project: { id: number; name: string }, tables: TableSummary[]): RecordScope {
  return {
    kind: 'client',
    projectId: project.id,
    projectName: project.name,
    projectLink: paths.clientAdmin.build(),
    tables,
    listLink: (tableId) => paths.clientTableData.build({ tableId }),
    newLink: (tableId) => paths.clientRecordNew.build({ tableId }),
    editLink: (tableId, postId) => paths.clientRecordEdit.build({ tableId, postId }),
    exportLink: (tableId, format, options) => tableExportUrl(tableId, format, options),
    // The panel has no user id; the server files client uploads under the token's project.
    uploadPrefix: (tableId) => [project.id, tableId],
  };
}
