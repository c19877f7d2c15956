import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '@/components/ConfirmDialog';
import { columnProblem } from '@/features/pages/lib/table-columns';
import { asItems } from '@/features/pages/lib/var-values';
import type { TableColumn } from '@/features/pages/types';
import type { ValueEditorProps } from './ValueEditor';
import { ActionButton } from '@/components/ActionButton';

const COLUMN_TYPES = ['text', 'number', 'link', 'image'] as const;

/**
 * `table` variables: the columns (key, label, type; spec §5: key required and [a-z0-9_]+, a
 * duplicate key alerted, deleting asks first) and the rows, one input per cell.
 */
export function TableEditor({ id, v, onValue, onPatch }: ValueEditorProps) {
  const { t } = useTranslation();
  const columns = v.columns ?? [];
  const rows = asItems(v.value);
  const [draft, setDraft] = useState<TableColumn>({ key: '', label: '', type: 'text' });
  const [problem, setProblem] = useState<string | null>(null);
  const [confirmDialog, askConfirm] = useConfirm();

  const addColumn = () => {
    const column = { ...draft, key: draft.key.trim(), label: draft.label.trim() };
    const found = columnProblem(columns, column, -1);
    setProblem(found);
    if (found) return;
    onPatch({ columns: [...columns, column] });
    setDraft({ key: '', label: '', type: 'text' });
  };

  const removeColumn = async (index: number) => {
    const column = columns[index];
    if (!column) return;
    const confirmed = await askConfirm({
      title: t('editor.table.confirmDelete', { label: column.label }),
      message: t('kit.confirm.columnMessage'),
      confirmLabel: t('common.delete'),
      destructive: true,
    });
    if (!confirmed) return;
    onPatch({
      columns: columns.filter((_, i) => i !== index),
      value: rows.map((row) => Object.fromEntries(Object.entries(row).filter(([key]) => key !== column.key))),
    });
  };

  const setCell = (rowIndex: number, key: string, value: string) =>
    onValue(rows.map((row, i) => (i === rowIndex ? { ...row, [key]: value } : row)));

  return (
    <div className="table-editor" id={id}>
      <table className="table-editor-grid">
        <thead>
          <tr>
            {columns.map((column, index) => (
              <th key={column.key} data-testid="table-column">
                <span title={column.key}>{column.label}</span>{' '}
                <button
                  type="button"
                  className="icon-button"
                  aria-label={t('editor.table.deleteColumn', { label: column.label })}
                  onClick={() => void removeColumn(index)}
                  data-testid="table-column-delete"
                >
                  ×
                </button>
              </th>
            ))}
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.map((row, rowIndex) => (
            <tr key={rowIndex} data-testid="table-row">
              {columns.map((column) => (
                <td key={column.key}>
                  <input
                    aria-label={`${column.label} ${rowIndex + 1}`}
                    type={column.type === 'number' ? 'number' : 'text'}
                    value={
                      typeof row[column.key] === 'string' || typeof row[column.key] === 'number'
                        ? String(row[column.key])
                        : ''
                    }
                    onChange={(e) => setCell(rowIndex, column.key, e.target.value)}
                  />
                </td>
              ))}
              <td>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={t('editor.table.deleteRow')}
                  onClick={() => onValue(rows.filter((_, i) => i !== rowIndex))}
                  data-testid="table-row-delete"
                >
                  ×
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ActionButton
        size="small"
        disabled={columns.length === 0}
        onClick={() => onValue([...rows, Object.fromEntries(columns.map((column) => [column.key, '']))])}
        testId="table-add-row"
      >
        {t('editor.table.addRow')}
      </ActionButton>
      <fieldset className="table-new-column">
        <legend>{t('editor.table.newColumn')}</legend>
        <input
          aria-label={t('editor.table.key')}
          placeholder={t('editor.table.key')}
          value={draft.key}
          onChange={(e) => setDraft({ ...draft, key: e.target.value })}
          data-testid="table-column-key"
        />
        <input
          aria-label={t('editor.table.label')}
          placeholder={t('editor.table.label')}
          value={draft.label}
          onChange={(e) => setDraft({ ...draft, label: e.target.value })}
          data-testid="table-column-label"
        />
        <select
          aria-label={t('editor.table.type')}
          value={draft.type}
          onChange={(e) => setDraft({ ...draft, type: e.target.value })}
          data-testid="table-column-type"
        >
          {COLUMN_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
        <ActionButton size="small" onClick={addColumn} testId="table-column-add">
          {t('editor.table.addColumn')}
        </ActionButton>
        {problem && (
          <p className="field-error" role="alert" data-testid="table-column-problem">
            {t(`editor.table.${problem}`)}
          </p>
        )}
      </fieldset>
      {confirmDialog}
    </div>
  );
}
