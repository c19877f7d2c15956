import { describe, expect, it } from 'vitest';
import type { ProjectDetail } from '@/lib/types';
import { clientScope, ownerScope } from './record-scope';

describe('record scopes', () => {
  it('links the owner screens under /project and uploads under [user, project, table]', () => {
    const scope = ownerScope({ id: 7, name: 'Loja', tables: [] } as unknown as ProjectDetail, 3);
    expect(scope.listLink(2)).toBe('/project/7/table/2/browse');
    expect(scope.editLink(2, 9)).toBe('/project/7/table/2/browse/edit/9');
    expect(scope.exportLink(2, 'csv')).toBe('/api/tables/2/export/csv');
    expect(scope.uploadPrefix(2)).toEqual([3, 7, 2]);
  });

  it('keeps the client panel under /admin and never puts its token in an export address', () => {
    const scope = clientScope({ id: 7, name: 'Loja' }, [{ id: 2, name: 'Produtos', slug: 'produtos' }]);
    expect(scope.projectLink).toBe('/admin');
    expect(scope.newLink(2)).toBe('/admin/table/2/new');
    expect(scope.exportLink(2, 'json')).toBe('/api/tables/2/export/json');
  });
});
