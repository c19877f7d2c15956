/**
 * The dashboard's data tables, on TanStack Table v9 (headless: the markup, styles and
 * accessibility stay ours; it owns the row model, sorting state and selection). Why TanStack:
 * lists are sorted and paged by the server (`manualSorting`), and the selection model with
 * "select all on this page" comes ready and tested.
 *
 * - The table scrolls sideways inside its own wrapper, never the page.
 * - A sortable column's header is a button, and its `<th>` carries `aria-sort`.
 * - With `selection`, a checkbox column is added and a sticky bar shows the count and the
 *   bulk actions while rows are chosen.
 */
import {
  rowSelectionFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type CellData,
  type ColumnDef,
  type RowData,
  type RowSelectionState,
  type SortingState,
  type TableFeatures,
  type Updater,
} from '@tanstack/react-table';
import type { ComponentType, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionButton } from './ActionButton';

/* eslint-disable @typescript-eslint/no-unused-vars -- the generics must repeat the library's to merge with its declaration */
declare module '@tanstack/react-table' {
  // A column's cells and header take this class (widths, wrapping, the actions cell).
  interface ColumnMeta<
    in out TFeatures extends TableFeatures,
    in out TData extends RowData,
    TValue extends CellData = CellData,
  > {
    className?: string;
  }
}
/* eslint-enable @typescript-eslint/no-unused-vars */

export const dataTableFeatures = tableFeatures({ rowSortingFeature, rowSelectionFeature });
export type DataTableFeatures = typeof dataTableFeatures;
export type DataColumn<T extends RowData> = ColumnDef<DataTableFeatures, T>;
export type { RowSelectionState, SortingState };

/**
 * Renders a header or cell template by calling it, where TanStack's FlexRender would mount it as a
 * component: column definitions are rebuilt on each render (they close over the screen's state),
 * so a mounted template would be a new component type each time and its subtree (an input being
 * typed into, a confirmation dialog, a running request) would be thrown away and remounted.
 * Called, a template's elements keep their place. So templates must not call hooks: a cell that
 * needs state is a component of its own, returned by the template.
 */
function renderTemplate<P extends object>(template: string | ((props: P) => unknown) | undefined, props: P) {
  if (template === undefined) return null;
  return (typeof template === 'function' ? template(props) : template) as ReactNode;
}

const apply = <S,>(updater: Updater<S>, current: S): S =>
  typeof updater === 'function' ? (updater as (old: S) => S)(current) : updater;

interface SelectionProps<T> {
  /** Chosen row ids (as `getRowId` gives them). */
  state: RowSelectionState;
  onChange: (next: RowSelectionState) => void;
  /** Accessible names of the checkboxes. */
  selectAllLabel: string;
  rowLabel: (row: T) => string;
  /** The bulk actions, shown in the sticky bar while rows are chosen (none: the page has its own bar). */
  actions?: ReactNode;
  /** Test id of the row checkboxes. */
  checkboxTestId?: string;
  /** Test id of the "select all" checkbox (default `select-all`). */
  selectAllTestId?: string;
}

/** What a custom row receives: its data, the `<tr>` attributes the table sets, and its cells. */
export interface DataRowProps<T> {
  row: T;
  rowAttributes: Record<string, string | number | undefined>;
  children: ReactNode;
}

function PlainRow<T>({ rowAttributes, children }: DataRowProps<T>) {
  return <tr {...rowAttributes}>{children}</tr>;
}

interface DataTableProps<T extends RowData> {
  data: T[];
  columns: DataColumn<T>[];
  getRowId: (row: T) => string;
  /** Server-side sorting: the current order and what to do when a header asks for another. */
  sorting?: SortingState;
  onSortingChange?: (next: SortingState) => void;
  selection?: SelectionProps<T>;
  /** Shown as one full-width row when there is no data. */
  empty?: ReactNode;
  className?: string;
  /** False when the table already sits in a card (a section with its own header): no second frame. */
  framed?: boolean;
  testId?: string;
  /** Extra `data-*` attributes of the `<table>` (a total, a state the tests wait for). */
  tableProps?: Record<`data-${string}`, string | number>;
  /** Test id of each body row: one for all, or one per row. */
  rowTestId?: string | ((row: T) => string);
  rowProps?: (row: T) => Record<`data-${string}`, string | number>;
  /**
   * Renders each body `<tr>` (a module-level component: it may hold the row's state, such as
   * a drag-and-drop handle, and give it to its cells through a context). It must spread
   * `rowAttributes` on the `<tr>` and render `children` in it.
   */
  rowComponent?: ComponentType<DataRowProps<T>>;
  /** Accessible name of the table. */
  label?: string;
}

export function DataTable<T extends RowData>({
  data,
  columns,
  getRowId,
  sorting,
  onSortingChange,
  selection,
  empty,
  className,
  framed = true,
  testId,
  tableProps,
  rowTestId,
  rowProps,
  rowComponent,
  label,
}: DataTableProps<T>) {
  const { t } = useTranslation();
  const table = useTable({
    features: dataTableFeatures,
    columns,
    data,
    getRowId: (row: T) => getRowId(row),
    manualSorting: true,
    enableSorting: onSortingChange !== undefined,
    enableSortingRemoval: false,
    enableMultiSort: false,
    enableRowSelection: selection !== undefined,
    state: { sorting: sorting ?? [], rowSelection: selection?.state ?? {} },
    onSortingChange: (updater: Updater<SortingState>) => onSortingChange?.(apply(updater, sorting ?? [])),
    onRowSelectionChange: (updater: Updater<RowSelectionState>) =>
      selection?.onChange(apply(updater, selection.state)),
  });
  const rows = table.getRowModel().rows;
  const chosen = selection ? rows.filter((row) => row.getIsSelected()).length : 0;
  const width = columns.length + (selection ? 1 : 0);
  const Row: ComponentType<DataRowProps<T>> = rowComponent ?? PlainRow;

  return (
    <div className="data-table-block">
      {selection?.actions && chosen > 0 && (
        <div
          className="selection-bar"
          role="region"
          aria-label={t('forms.table.selection')}
          data-testid="selection-bar"
        >
          <span data-testid="selection-count">{t('forms.table.selected', { count: chosen })}</span>
          <div className="button-row">{selection.actions}</div>
          <ActionButton size="small" onClick={() => selection.onChange({})} testId="selection-clear">
            {t('forms.table.clear')}
          </ActionButton>
        </div>
      )}
      <div className={framed ? 'card table-card table-scroll' : 'table-scroll'}>
        <table
          className={['data-table', className].filter(Boolean).join(' ')}
          data-testid={testId}
          aria-label={label}
          {...tableProps}
        >
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {selection && (
                  <th className="check-cell">
                    <input
                      type="checkbox"
                      aria-label={selection.selectAllLabel}
                      checked={table.getIsAllRowsSelected()}
                      ref={(input) => {
                        if (input)
                          input.indeterminate =
                            table.getIsSomeRowsSelected() && !table.getIsAllRowsSelected();
                      }}
                      disabled={rows.length === 0}
                      onChange={(event) => table.toggleAllRowsSelected(event.target.checked)}
                      data-testid={selection.selectAllTestId ?? 'select-all'}
                    />
                  </th>
                )}
                {group.headers.map((header) => {
                  const canSort = header.column.getCanSort();
                  const sorted = header.column.getIsSorted();
                  const meta = header.column.columnDef.meta;
                  return (
                    <th
                      key={header.id}
                      className={meta?.className}
                      aria-sort={
                        canSort
                          ? sorted === 'asc'
                            ? 'ascending'
                            : sorted === 'desc'
                              ? 'descending'
                              : 'none'
                          : undefined
                      }
                    >
                      {header.isPlaceholder ? null : canSort ? (
                        <button
                          type="button"
                          className="sort-button"
                          onClick={header.column.getToggleSortingHandler()}
                          data-testid={`sort-${header.column.id}`}
                        >
                          {renderTemplate(header.column.columnDef.header, header.getContext())}
                          <span aria-hidden="true" className="sort-mark">
                            {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
                          </span>
                        </button>
                      ) : (
                        renderTemplate(header.column.columnDef.header, header.getContext())
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {rows.length === 0 && empty && (
              <tr>
                <td colSpan={width} className="empty muted">
                  {empty}
                </td>
              </tr>
            )}
            {rows.map((row) => (
              <Row
                key={row.id}
                row={row.original}
                rowAttributes={{
                  className: row.getIsSelected() ? 'is-selected' : undefined,
                  'data-testid': typeof rowTestId === 'function' ? rowTestId(row.original) : rowTestId,
                  ...rowProps?.(row.original),
                }}
              >
                {selection && (
                  <td className="check-cell">
                    <input
                      type="checkbox"
                      aria-label={selection.rowLabel(row.original)}
                      checked={row.getIsSelected()}
                      onChange={(event) => row.toggleSelected(event.target.checked)}
                      data-testid={selection.checkboxTestId ?? 'row-select'}
                    />
                  </td>
                )}
                {row.getAllCells().map((cell) => {
                  const meta = cell.column.columnDef.meta;
                  return (
                    <td key={cell.id} className={meta?.className}>
                      {renderTemplate(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  );
                })}
              </Row>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
