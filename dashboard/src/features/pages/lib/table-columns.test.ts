import { describe, expect, it } from 'vitest';
import { columnProblem } from './table-columns';

const columns = [{ key: 'price', label: 'Price', type: 'text' }];

describe('columnProblem', () => {
  it('needs a key matching [a-z0-9_]+ and a label', () => {
    expect(columnProblem(columns, { key: '', label: 'A', type: 'text' }, -1)).toBe('keyRequired');
    expect(columnProblem(columns, { key: 'Preço', label: 'A', type: 'text' }, -1)).toBe('keyPattern');
    expect(columnProblem(columns, { key: 'a-b', label: 'A', type: 'text' }, -1)).toBe('keyPattern');
    expect(columnProblem(columns, { key: 'name_2', label: ' ', type: 'text' }, -1)).toBe('labelRequired');
    expect(columnProblem(columns, { key: 'name_2', label: 'Name', type: 'text' }, -1)).toBeNull();
  });

  it('refuses a key that another column has, but not the column itself', () => {
    expect(columnProblem(columns, { key: 'price', label: 'P', type: 'text' }, -1)).toBe('duplicate');
    expect(columnProblem(columns, { key: 'price', label: 'P', type: 'text' }, 0)).toBeNull();
  });
});
