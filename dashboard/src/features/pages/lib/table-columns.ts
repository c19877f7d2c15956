/**
 * Table-block columns (spec §5): key required and matching [a-z0-9_]+, label required, keys
 * unique. The result names the i18n message under `editor.table`.
 */
import type { TableColumn } from '@/features/pages/types';

export const COLUMN_KEY = /^[a-z0-9_]+$/;

export type ColumnProblem = 'keyRequired' | 'keyPattern' | 'labelRequired' | 'duplicate';

/** Checks `column` as it would stand at `index` (-1: a new column) among `columns`. */
export function columnProblem(
  columns: TableColumn[],
  column: TableColumn,
  index: number,
): ColumnProblem | null {
  const key = column.key.trim();
  if (!key) return 'keyRequired';
  if (!COLUMN_KEY.test(key)) return 'keyPattern';
  if (!column.label.trim()) return 'labelRequired';
  if (columns.some((other, i) => i !== index && other.key === key)) return 'duplicate';
  return null;
}
