/** Query keys shared across features, so a mutation in one invalidates queries of another. */
export const queryKeys = {
  config: ['config'] as const,
  user: ['user'] as const,
  projects: ['projects'] as const,
  project: (id: number) => ['projects', id] as const,
  templates: ['templates'] as const,
  /** The admin's template list (unpublished ones too); under templates, so a change refreshes the picker. */
  erpTemplates: ['templates', 'erp'] as const,
  /** One template with its pages (theme preview). */
  template: (id: number) => ['templates', 'detail', id] as const,
  table: (id: number) => ['tables', id] as const,
  /** Prefix of every records page of a table. */
  tableData: (id: number) => ['tables', id, 'data'] as const,
  tableDataPage: (id: number, page: number, limit: number) => ['tables', id, 'data', page, limit] as const,
  post: (id: number) => ['posts', id] as const,
  clientProject: (token: string) => ['client-project', token] as const,
  page: (projectId: number, pageId: number) => ['projects', projectId, 'pages', pageId] as const,
  /** A project's shared header and footer (GET /api/project/{id}/sections). */
  sections: (projectId: number) => ['projects', projectId, 'sections'] as const,
  /** A project's site identity (GET /api/projects/{id}/identity): name, contacts, logo, social links. */
  identity: (projectId: number) => ['projects', projectId, 'identity'] as const,
  /** A project's site theme with its contrast figures (GET /api/projects/{id}/theme). */
  theme: (projectId: number) => ['projects', projectId, 'theme'] as const,
  /** Prefix of every redirects page of a project. */
  redirects: (projectId: number) => ['projects', projectId, 'redirects'] as const,
  redirectsPage: (projectId: number, query: string) => ['projects', projectId, 'redirects', query] as const,
  redirect: (id: number) => ['redirects', id] as const,
  /** Prefix of every form history page of a project. */
  formHistory: (projectId: number) => ['projects', projectId, 'form-history'] as const,
  formHistoryPage: (projectId: number, page: number, limit: number, filter: string) =>
    ['projects', projectId, 'form-history', page, limit, filter] as const,
  /** Where a project's form notifications go, and whether that address is confirmed. */
  formEmail: (projectId: number) => ['projects', projectId, 'form-email'] as const,
  /** The spreadsheet import link's own token. */
  sheetLink: (projectId: number) => ['projects', projectId, 'sheet-token'] as const,
  /** A project's deploy history; under the project's key, so refreshing the project refreshes it. */
  deploys: (projectId: number) => ['projects', projectId, 'deploys'] as const,
  /**
   * A project's analytics report for a range (GET /api/projects/{id}/analytics); under the
   * project's key, so saving the project's settings (analytics on or off) refreshes it.
   */
  analytics: (projectId: number, from: string, to: string) =>
    ['projects', projectId, 'analytics', from, to] as const,
  /** The "now" figure (visitors in the last 5 minutes), asked for on its own every 30 s. */
  analyticsNow: (projectId: number) => ['projects', projectId, 'analytics', 'now'] as const,
  /** The block library and the user's My Blocks (GET /api/blocks). */
  blocks: ['blocks'] as const,
  /** The caller's business's own block library (GET /api/business/blocks). */
  businessBlocks: ['business-blocks'] as const,
  /** The caller's business users (GET /api/business/users) and one of them. */
  businessUsers: ['business-users'] as const,
  businessUser: (id: number) => ['business-users', id] as const,
  /** Every account, for the administrator (GET /api/users). */
  erpUsers: ['erp-users'] as const,
  /** The edge nodes and their heartbeat figures, for the administrator (GET /api/edges). */
  erpEdges: ['erp-edges'] as const,
  /** How far the conversion of older uploads into photos got (GET /erp/photos). */
  erpPhotos: ['erp-photos'] as const,
  /** How far the pass that pictures the library got (GET /erp/thumbnails). */
  erpThumbnails: ['erp-thumbnails'] as const,
  /** Plans in every currency (GET /api/plans). */
  plans: ['plans'] as const,
  /** Prefix of the balance and every month and day of the transaction history. */
  transactions: ['transactions'] as const,
  balance: ['transactions', 'balance'] as const,
  /** The account's storage usage (uploads and records) against its quotas. */
  storageUsage: ['user', 'storage'] as const,
  transactionMonth: (month: string) => ['transactions', 'month', month] as const,
  transactionDay: (month: string, day: string) => ['transactions', 'day', month, day] as const,
  /** The card provider's configuration (null when card payments are not configured). */
  stripeConfig: ['stripe-config'] as const,
};
