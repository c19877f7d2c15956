import { useTranslation } from 'react-i18next';
import { DEFAULT_DELIMITER, parseCsv, rectangular, serializeCsv } from '@/features/collections/lib/csv-table';
import { ActionButton } from '@/components/ActionButton';

interface CsvTableEditorProps {
  id: string;
  value: string;
  onChange: (csv: string) => void;
  delimiter?: string | undefined;
}

/** csvtable field: a small grid over CSV text written with the field's delimiter. */
export function CsvTableEditor({ id, value, onChange, delimiter = DEFAULT_DELIMITER }: CsvTableEditorProps) {
  const { t } = useTranslation();
  const rows = rectangular(parseCsv(value, delimiter));
  const grid = rows.length > 0 ? rows : [['']];
  const width = grid[0]?.length ?? 1;
  const commit = (next: string[][]) => {
    const blank = next.every((row) => row.every((cell) => cell === ''));
    onChange(blank ? '' : serializeCsv(next, delimiter));
  };
  const setCell = (r: number, c: number, text: string) =>
    commit(grid.map((row, ri) => (ri === r ? row.map((cell, ci) => (ci === c ? text : cell)) : row)));

  return (
    <div className="csv-editor" id={id} data-testid={id}>
      <table>
        <tbody>
          {grid.map((row, r) => (
            <tr key={r}>
              {row.map((cell, c) => (
                <td key={c}>
                  <input
                    aria-label={`${r + 1}:${c + 1}`}
                    value={cell}
                    onChange={(event) => setCell(r, c, event.target.value)}
                    data-testid={`${id}-cell-${r}-${c}`}
                  />
                </td>
              ))}
              <td>
                <ActionButton
                  size="small"
                  variant="danger-ghost"
                  disabled={grid.length === 1}
                  onClick={() => commit(grid.filter((_, ri) => ri !== r))}
                  aria-label={t('records.form.csv.removeRow')}
                >
                  ×
                </ActionButton>
              </td>
            </tr>
          ))}
          <tr>
            {Array.from({ length: width }, (_, c) => (
              <td key={c}>
                <ActionButton
                  size="small"
                  variant="danger-ghost"
                  disabled={width === 1}
                  onClick={() => commit(grid.map((row) => row.filter((_, ci) => ci !== c)))}
                  aria-label={t('records.form.csv.removeColumn')}
                >
                  ×
                </ActionButton>
              </td>
            ))}
          </tr>
        </tbody>
      </table>
      <div className="button-row">
        <ActionButton
          size="small"
          onClick={() => commit([...grid, Array.from({ length: width }, () => '')])}
          testId={`${id}-add-row`}
        >
          + {t('records.form.csv.addRow')}
        </ActionButton>
        <ActionButton
          size="small"
          onClick={() => commit(grid.map((row) => [...row, '']))}
          testId={`${id}-add-column`}
        >
          + {t('records.form.csv.addColumn')}
        </ActionButton>
      </div>
    </div>
  );
}
