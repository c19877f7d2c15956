import { describe, expect, it } from 'vitest';
import { googleSheetsUrl, tableExportUrl } from '@/lib/api-urls';
import { paths, route } from './paths';

describe('paths', () => {
  it('builds project and page paths from named parameters', () => {
    expect(paths.project.build({ projectId: 7 })).toBe('/project/7');
    expect(paths.projectEdit.build({ projectId: 7 })).toBe('/project/7/edit');
    expect(paths.page.build({ projectId: 7, pageId: 12 })).toBe('/project/7/12');
    expect(paths.projectIdentity.build({ projectId: 7 })).toBe('/project/7/identity');
  });

  it('builds parameterless paths, with a query when one is given', () => {
    expect(paths.home.build()).toBe('/');
    expect(paths.login.build()).toBe('/login');
    expect(paths.clientAdmin.build({}, { token: 'a b' })).toBe('/admin?token=a+b');
    expect(
      new URL(paths.clientAdmin.build({}, { token: 'a&b=c' }), 'http://x').searchParams.get('token'),
    ).toBe('a&b=c');
  });

  it('leaves out query parameters that are unset or false, and writes true as 1', () => {
    expect(paths.login.build({}, { next: undefined, a: null, b: false, c: true, d: 0 })).toBe(
      '/login?c=1&d=0',
    );
  });

  it('encodes parameter values', () => {
    expect(route('/x/:slug').build({ slug: 'a/b c' })).toBe('/x/a%2Fb%20c');
  });

  it('fails loudly when a parameter is missing at run time', () => {
    const build = paths.project.build as (params?: object) => string;
    expect(() => build({})).toThrow('/project/:projectId needs :projectId');
  });

  it('builds the theme preview, business user, collection, record and client panel paths', () => {
    expect(paths.template.build({ templateId: 5 })).toBe('/template/5');
    expect(paths.userEdit.build({ userId: 9 })).toBe('/users/9');
    expect(paths.projectTableFields.build({ projectId: 7, tableId: 3 })).toBe('/project/7/table/3/fields');
    expect(paths.projectRecordEdit.build({ projectId: 7, tableId: 3, postId: 11 })).toBe(
      '/project/7/table/3/browse/edit/11',
    );
    expect(paths.clientRecordNew.build({ tableId: 3 })).toBe('/admin/table/3/new');
  });

  it('builds redirect and form history paths; the redirect form is under the list', () => {
    expect(paths.projectRedirects.build({ projectId: 7 })).toBe('/project/7/redirects');
    expect(paths.projectRedirectNew.build({ projectId: 7 })).toBe('/project/7/redirects/new');
    expect(paths.projectRedirectEdit.build({ projectId: 7, redirectId: 4 })).toBe(
      '/project/7/redirects/edit/4',
    );
    expect(paths.projectRedirectNew.pattern.startsWith(`${paths.projectRedirects.pattern}/`)).toBe(true);
    expect(paths.projectFormHistory.build({ projectId: 7 })).toBe('/project/7/form-history');
    expect(paths.projectAnalytics.build({ projectId: 7 }, { range: '7d' })).toBe(
      '/project/7/analytics?range=7d',
    );
  });

  it('checks parameters at compile time', () => {
    // @ts-expect-error tableId is missing
    expect(() => paths.projectTable.build({ projectId: 1 })).toThrow();
    // @ts-expect-error the route has no parameters to give
    expect(paths.home.build({ projectId: 1 })).toBe('/');
  });
});

describe('control plane addresses', () => {
  it('adds phone=1 and gtags=1 to the spreadsheet link only when chosen', () => {
    expect(googleSheetsUrl(3, 'tok', { phone: false, gtags: false })).toBe('/google-sheets/3/tok');
    expect(googleSheetsUrl(3, 'tok', { phone: true, gtags: false })).toBe('/google-sheets/3/tok?phone=1');
    expect(googleSheetsUrl(3, 'tok', { phone: true, gtags: true })).toBe(
      '/google-sheets/3/tok?phone=1&gtags=1',
    );
  });

  it('builds the export download, never with a token in the address', () => {
    expect(tableExportUrl(3, 'csv')).toBe('/api/tables/3/export/csv');
    expect(tableExportUrl(3, 'csv', { bom: true })).toBe('/api/tables/3/export/csv?bom=true');
  });
});
