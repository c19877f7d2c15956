/** Addresses served by the control plane itself (not dashboard routes, see `@/app/paths` for those). */

/** Export download (API); the client panel authorises it with ?client_token=. */
export function tableExportUrl(
  tableId: number,
  format: 'csv' | 'json',
  clientToken?: string | null,
  options: { bom?: boolean } = {},
): string {
  const query = new URLSearchParams();
  if (clientToken) query.set('client_token', clientToken);
  if (options.bom) query.set('bom', 'true');
  const text = query.toString();
  return `/api/tables/${tableId}/export/${format}${text ? `?${text}` : ''}`;
}

/** Spreadsheet import endpoint shown in Integrations; phone=1 and gtags=1 only when chosen. */
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
