import { describe, expect, it } from 'vitest';
import en from '@/locales/en.json';
import ptBR from '@/locales/pt-BR.json';
import { titleKey } from './document-title';

describe('titleKey', () => {
  it('names each main screen, the most specific pattern first', () => {
    expect(titleKey('/')).toBe('documentTitle.projects');
    expect(titleKey('/project/new')).toBe('documentTitle.newProject');
    expect(titleKey('/project/7')).toBe('documentTitle.overview');
    expect(titleKey('/project/7/edit')).toBe('documentTitle.settings');
    expect(titleKey('/project/7/tables')).toBe('documentTitle.collections');
    expect(titleKey('/project/7/form-history')).toBe('documentTitle.formHistory');
    expect(titleKey('/project/7/analytics')).toBe('documentTitle.analytics');
    expect(titleKey('/project/7/42')).toBe('documentTitle.editor');
    expect(titleKey('/project/7/table/3/browse')).toBe('documentTitle.records');
    expect(titleKey('/project/7/table/3/browse/edit/9')).toBe('documentTitle.record');
    expect(titleKey('/project/7/redirects/edit/5')).toBe('documentTitle.redirects');
    expect(titleKey('/erp/edges')).toBe('documentTitle.erpEdges');
    expect(titleKey('/project/7/identity')).toBe('documentTitle.identity');
    expect(titleKey('/nothing/here/at/all/really')).toBeNull();
  });

  it('has every title in both catalogues', () => {
    expect(Object.keys(ptBR.documentTitle).sort()).toEqual(Object.keys(en.documentTitle).sort());
  });
});
