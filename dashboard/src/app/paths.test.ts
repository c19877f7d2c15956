import { describe, expect, it } from 'vitest';
import { links } from './paths';

describe('links', () => {
  it('builds project and page paths', () => {
    expect(links.project(7)).toBe('/project/7');
    expect(links.projectEdit(7)).toBe('/project/7/edit');
    expect(links.page(7, 12)).toBe('/project/7/12');
    expect(links.clientAdmin('a b')).toBe('/admin?token=a%20b');
  });

  it('builds the theme preview path', () => {
    expect(links.template(5)).toBe('/template/5');
  });

  it('builds the business user edit path', () => {
    expect(links.userEdit(9)).toBe('/users/9');
  });

  it('adds phone=1 and gtags=1 to the spreadsheet link only when chosen', () => {
    expect(links.googleSheets(3, 'tok', { phone: false, gtags: false })).toBe('/google-sheets/3/tok');
    expect(links.googleSheets(3, 'tok', { phone: true, gtags: false })).toBe('/google-sheets/3/tok?phone=1');
    expect(links.googleSheets(3, 'tok', { phone: true, gtags: true })).toBe(
      '/google-sheets/3/tok?phone=1&gtags=1',
    );
  });

  it('builds collection, record and client panel paths', () => {
    expect(links.tableFields(7, 3)).toBe('/project/7/table/3/fields');
    expect(links.recordEdit(7, 3, 11)).toBe('/project/7/table/3/browse/edit/11');
    expect(links.clientRecordNew(3)).toBe('/admin/table/3/new');
    expect(links.tableExport(3, 'csv')).toBe('/api/tables/3/export/csv');
    expect(links.tableExport(3, 'json', 't k')).toBe('/api/tables/3/export/json?client_token=t%20k');
  });

  it('builds redirect and form history paths', () => {
    expect(links.projectRedirects(7)).toBe('/project/7/redirects');
    expect(links.projectRedirectNew(7)).toBe('/project/7/redirects/new');
    expect(links.projectRedirectEdit(7, 4)).toBe('/project/7/redirects/edit/4');
    expect(links.projectFormHistory(7)).toBe('/project/7/form-history');
  });
});
