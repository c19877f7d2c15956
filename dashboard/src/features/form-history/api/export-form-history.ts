import { filterParams } from '@/features/form-history/api/get-form-history';
import type { HistoryFilter } from '@/features/form-history/types';

/**
 * The CSV download of every entry the filter keeps (all pages). A plain link: the browser sends
 * the session cookie and saves the file the server names.
 */
export function formHistoryExportUrl(projectId: number, filter: HistoryFilter): string {
  const query = filterParams(filter).toString();
  return `/api/projects/${projectId}/form-history/export${query ? `?${query}` : ''}`;
}
