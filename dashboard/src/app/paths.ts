/** Every route path of the dashboard, and builders for links to them. */

export const paths = {
  home: '/',
  login: '/login',
  forgot: '/forgot',
  newPassword: '/new-password',
  /** Public: reached from the e-mail that asks a notification address to confirm (token in the query). */
  confirmFormEmail: '/confirm-form-email',
  logout: '/logout',
  mobile: '/mobile',
  user: '/user',
  /** Business users (business admin only, RequireBusinessAdmin). */
  users: '/users',
  userNew: '/users/new',
  userEdit: '/users/:userId',
  /** The business's own block library (business admin only, RequireBusinessAdmin). */
  businessBlocks: '/business/blocks',
  projectNew: '/project/new',
  project: '/project/:projectId',
  projectEdit: '/project/:projectId/edit',
  projectTables: '/project/:projectId/tables',
  projectTableNew: '/project/:projectId/table/new',
  projectTable: '/project/:projectId/table/:tableId',
  projectTableFields: '/project/:projectId/table/:tableId/fields',
  projectTableData: '/project/:projectId/table/:tableId/browse',
  projectRecordNew: '/project/:projectId/table/:tableId/browse/new',
  projectRecordEdit: '/project/:projectId/table/:tableId/browse/edit/:postId',
  /** Client admin panel: public, authorised by the project token (no login, no header links). */
  clientAdmin: '/admin',
  clientTableData: '/admin/table/:tableId',
  clientRecordNew: '/admin/table/:tableId/new',
  clientRecordEdit: '/admin/table/:tableId/edit/:postId',
  projectRedirects: '/project/:projectId/redirects',
  /** Children of projectRedirects: the form opens over the list. */
  projectRedirectNew: 'new',
  projectRedirectEdit: 'edit/:redirectId',
  projectFormHistory: '/project/:projectId/form-history',
  page: '/project/:projectId/:pageId',
  /** Administrator screens (admin only, RequireAdmin). */
  erpBlocks: '/erp/blocks',
  erpTemplates: '/erp/templates',
  erpUsers: '/erp/users',
  /** The platform operators' ops screen: every edge node's heartbeat figures. */
  erpEdges: '/erp/edges',
  /** Theme preview (admin only). */
  template: '/template/:templateId',
} as const;

export const links = {
  project: (id: number) => `/project/${id}`,
  projectEdit: (id: number) => `/project/${id}/edit`,
  projectTables: (id: number) => `/project/${id}/tables`,
  tableNew: (projectId: number) => `/project/${projectId}/table/new`,
  table: (projectId: number, tableId: number) => `/project/${projectId}/table/${tableId}`,
  tableFields: (projectId: number, tableId: number) => `/project/${projectId}/table/${tableId}/fields`,
  tableData: (projectId: number, tableId: number) => `/project/${projectId}/table/${tableId}/browse`,
  recordNew: (projectId: number, tableId: number) => `/project/${projectId}/table/${tableId}/browse/new`,
  recordEdit: (projectId: number, tableId: number, postId: number) =>
    `/project/${projectId}/table/${tableId}/browse/edit/${postId}`,
  clientHome: () => '/admin',
  clientTableData: (tableId: number) => `/admin/table/${tableId}`,
  clientRecordNew: (tableId: number) => `/admin/table/${tableId}/new`,
  clientRecordEdit: (tableId: number, postId: number) => `/admin/table/${tableId}/edit/${postId}`,
  /** Export download (API); the client panel authorises it with ?client_token=. */
  tableExport: (tableId: number, format: 'csv' | 'json', clientToken?: string | null) =>
    `/api/tables/${tableId}/export/${format}${clientToken ? `?client_token=${encodeURIComponent(clientToken)}` : ''}`,
  projectRedirects: (id: number) => `/project/${id}/redirects`,
  projectRedirectNew: (projectId: number) => `/project/${projectId}/redirects/new`,
  projectRedirectEdit: (projectId: number, id: number) => `/project/${projectId}/redirects/edit/${id}`,
  projectFormHistory: (id: number) => `/project/${id}/form-history`,
  page: (projectId: number, pageId: number) => `/project/${projectId}/${pageId}`,
  /** Theme preview (admin only). */
  template: (id: number) => `/template/${id}`,
  /** Edit a business user (business admin only). */
  userEdit: (id: number) => `/users/${id}`,
  /** Entry link of the client admin panel, with the project token. */
  clientAdmin: (token: string) => `/admin?token=${encodeURIComponent(token)}`,
  /** Spreadsheet import endpoint shown in Integrations. */
  googleSheets: (projectId: number, token: string, options: { phone: boolean; gtags: boolean }) => {
    const query = new URLSearchParams();
    if (options.phone) query.set('phone', '1');
    if (options.gtags) query.set('gtags', '1');
    const search = query.toString();
    return `/google-sheets/${projectId}/${token}${search ? `?${search}` : ''}`;
  },
};
