/**
 * Every route of the dashboard, in one table: each entry has its `pattern` (what the router matches)
 * and a typed `build` (what links and navigations use). `build` takes exactly the pattern's `:params`,
 * so a link that forgets one, or names one the route doesn't have, does not type-check:
 *
 *   paths.projectTable.build({ projectId: 7, tableId: 3 }) // '/project/7/table/3'
 *   paths.login.build()                                    // '/login'
 *   paths.clientAdmin.build({}, { token })                 // '/admin?token=…'
 *
 * react-router's own `href()` types its parameters only from the route types its framework mode
 * generates; this app uses the data router without that code generation, hence this small builder.
 */

/** The `:name` parameters of a route pattern, as a union of names. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

export type PathParams<P extends string> = { [K in PathParamNames<P>]: string | number };

/** Query parameters appended to a built path; undefined, null and false leave the parameter out. */
export type PathSearch = Record<string, string | number | boolean | null | undefined>;

type BuildArgs<P extends string> = [PathParamNames<P>] extends [never]
  ? [params?: Record<string, never>, search?: PathSearch]
  : [params: PathParams<P>, search?: PathSearch];

export interface Route<P extends string> {
  /** The pattern the router matches, `:name` for each parameter. */
  readonly pattern: P;
  /** The path with each parameter filled in (URL-encoded), and the query if one is given. */
  build(...args: BuildArgs<P>): string;
}

export function route<P extends string>(pattern: P): Route<P> {
  return {
    pattern,
    build(...args: BuildArgs<P>) {
      const [params, search] = args as [Record<string, string | number> | undefined, PathSearch | undefined];
      const path = pattern.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
        const value = params?.[name];
        if (value === undefined) throw new Error(`paths: ${pattern} needs :${name}`);
        return encodeURIComponent(String(value));
      });
      const query = new URLSearchParams();
      for (const [key, value] of Object.entries(search ?? {})) {
        if (value === undefined || value === null || value === false) continue;
        query.set(key, value === true ? '1' : String(value));
      }
      const queryText = query.toString();
      return queryText ? `${path}?${queryText}` : path;
    },
  };
}

export const paths = {
  home: route('/'),
  login: route('/login'),
  forgot: route('/forgot'),
  newPassword: route('/new-password'),
  /** Public: reached from the e-mail that asks a notification address to confirm (token in the query). */
  confirmFormEmail: route('/confirm-form-email'),
  confirmEmail: route('/confirm-email'),
  logout: route('/logout'),
  mobile: route('/mobile'),
  user: route('/user'),
  /** Business users (business admin only, RequireBusinessAdmin). */
  users: route('/users'),
  userNew: route('/users/new'),
  userEdit: route('/users/:userId'),
  /** The business's own block library (business admin only, RequireBusinessAdmin). */
  businessBlocks: route('/business/blocks'),
  projectNew: route('/project/new'),
  project: route('/project/:projectId'),
  projectEdit: route('/project/:projectId/edit'),
  /** The site identity (name, contacts, logo, social links) and theme (colours, fonts). */
  projectIdentity: route('/project/:projectId/identity'),
  projectTables: route('/project/:projectId/tables'),
  projectTableNew: route('/project/:projectId/table/new'),
  projectTable: route('/project/:projectId/table/:tableId'),
  projectTableFields: route('/project/:projectId/table/:tableId/fields'),
  projectTableData: route('/project/:projectId/table/:tableId/browse'),
  projectRecordNew: route('/project/:projectId/table/:tableId/browse/new'),
  projectRecordEdit: route('/project/:projectId/table/:tableId/browse/edit/:postId'),
  /**
   * Client admin panel: public, authorised by the project token (no login, no header links); its
   * entry link carries the token: `paths.clientAdmin.build({}, { token })`.
   */
  clientAdmin: route('/admin'),
  clientTableData: route('/admin/table/:tableId'),
  clientRecordNew: route('/admin/table/:tableId/new'),
  clientRecordEdit: route('/admin/table/:tableId/edit/:postId'),
  projectRedirects: route('/project/:projectId/redirects'),
  /** Children of projectRedirects: the form opens over the list. */
  projectRedirectNew: route('/project/:projectId/redirects/new'),
  projectRedirectEdit: route('/project/:projectId/redirects/edit/:redirectId'),
  projectFormHistory: route('/project/:projectId/form-history'),
  /** The site's visitors, views, sources and 404s for a range (`?range=7d` or `?from=…&to=…`). */
  projectAnalytics: route('/project/:projectId/analytics'),
  page: route('/project/:projectId/:pageId'),
  /** Administrator screens (admin only, RequireAdmin). */
  erpBlocks: route('/erp/blocks'),
  erpTemplates: route('/erp/templates'),
  erpUsers: route('/erp/users'),
  /** The platform operators' ops screen: every edge node's heartbeat figures. */
  erpEdges: route('/erp/edges'),
  erpPhotos: route('/erp/photos'),
  /**
   * Theme preview: any signed-in owner, of a published template (the server answers 404 for an
   * unpublished one, except to administrators); read-only, with "use this template".
   */
  template: route('/template/:templateId'),
} as const;

export type PathName = keyof typeof paths;
