/** Addresses served by the control plane itself (not dashboard routes, see `@/app/paths` for those). */

/**
 * Export download (API). The owner's is a plain link (the session cookie); the client panel
 * fetches it with its X-Client-Token header (the server refuses a token in the address).
 */
export function tableExportUrl(
  tableId: number,
  format: 'csv' | 'json',
  options: { bom?: boolean } = {},
): string {
  const query = new URLSearchParams();
  if (options.bom) query.set('bom', 'true');
  const text = query.toString();
  return `/api/tables/${tableId}/export/${format}${text ? `?${text}` : ''}`;
}

/**
 * Spreadsheet import endpoint shown in Integrations, with the spreadsheet link's own token (never
 * the client panel's); phone=1 and gtags=1 only when chosen.
 */
export function googleSheetsUrl(
  projectId: number,
  token: string,
  options: { phone: boolean; gtags: boolean },
): string {
  const query = new URLSearchParams();
  if (options.phone) query.set('phone', '1');
  if (options.gtags) query.set('gtags', '1');
  const search = query.toString();
  return `/google-sheets/${projectId}/${token}${search ? `?${search}` : ''}`;
}
