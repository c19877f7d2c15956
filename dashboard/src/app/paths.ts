/** Every route path of the dashboard, and builders for links to them. */

export const paths = {
  home: '/',
  login: '/login',
  forgot: '/forgot',
  newPassword: '/new-password',
  logout: '/logout',
  mobile: '/mobile',
  user: '/user',
  users: '/users',
  projectNew: '/project/new',
  project: '/project/:projectId',
  projectEdit: '/project/:projectId/edit',
  projectTables: '/project/:projectId/tables',
  projectRedirects: '/project/:projectId/redirects',
  projectFormHistory: '/project/:projectId/form-history',
  page: '/project/:projectId/:pageId',
} as const;

export const links = {
  project: (id: number) => `/project/${id}`,
  projectEdit: (id: number) => `/project/${id}/edit`,
  projectTables: (id: number) => `/project/${id}/tables`,
  projectRedirects: (id: number) => `/project/${id}/redirects`,
  projectFormHistory: (id: number) => `/project/${id}/form-history`,
  page: (projectId: number, pageId: number) => `/project/${projectId}/${pageId}`,
  /** Served by the control plane (client admin panel), not by this router. */
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
