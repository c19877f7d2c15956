// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '@/lib/i18n';
import { tableHeaders } from '@/testing/tables';
import {
  DataTable,
  type DataColumn,
  type DataRowProps,
  type RowSelectionState,
  type SortingState,
} from './DataTable';

interface Fruit {
  id: number;
  name: string;
}

const fruits: Fruit[] = [
  { id: 1, name: 'Caju' },
  { id: 2, name: 'Acerola' },
];

/** A cell with its own state: what is typed must survive the table redrawing around it. */
function NoteInput({ fruit }: { fruit: Fruit }) {
  const [note, setNote] = useState('');
  return (
    <input
      aria-label={`Nota de ${fruit.name}`}
      value={note}
      onChange={(event) => setNote(event.target.value)}
      data-testid="note"
    />
  );
}

const columns = (label: string): DataColumn<Fruit>[] => [
  {
    id: 'name',
    accessorFn: (fruit) => fruit.name,
    header: () => label,
    cell: ({ row }) => row.original.name,
  },
  {
    id: 'note',
    enableSorting: false,
    header: () => 'Nota',
    cell: ({ row }) => <NoteInput fruit={row.original} />,
  },
];

afterEach(cleanup);

describe('DataTable', () => {
  it('marks the sorted header with aria-sort and asks for the other direction on a click', () => {
    const onSortingChange = vi.fn<(next: SortingState) => void>();
    render(
      <DataTable
        data={fruits}
        columns={columns('Nome')}
        getRowId={(fruit) => String(fruit.id)}
        sorting={[{ id: 'name', desc: false }]}
        onSortingChange={onSortingChange}
        testId="fruits"
      />,
    );
    expect(tableHeaders(screen.getByTestId('fruits'))).toEqual([
      { text: 'Nome▲', sort: 'ascending' },
      { text: 'Nota', sort: null },
    ]);
    fireEvent.click(screen.getByTestId('sort-name'));
    expect(onSortingChange).toHaveBeenCalledWith([{ id: 'name', desc: true }]);
    expect(screen.queryByTestId('sort-note')).toBeNull();
  });

  it('has no sortable header without onSortingChange (the API takes no order)', () => {
    render(
      <DataTable data={fruits} columns={columns('Nome')} getRowId={(f) => String(f.id)} testId="fruits" />,
    );
    expect(tableHeaders(screen.getByTestId('fruits')).map((header) => header.sort)).toEqual([null, null]);
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('shows the sticky selection bar with the count and the bulk actions while rows are chosen', () => {
    function Chooser() {
      const [chosen, setChosen] = useState<RowSelectionState>({});
      return (
        <DataTable
          data={fruits}
          columns={columns('Nome')}
          getRowId={(fruit) => String(fruit.id)}
          selection={{
            state: chosen,
            onChange: setChosen,
            selectAllLabel: 'Todas',
            rowLabel: (fruit) => fruit.name,
            actions: <button type="button">Excluir</button>,
          }}
        />
      );
    }
    render(<Chooser />);
    expect(screen.queryByTestId('selection-bar')).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Acerola' }));
    const bar = screen.getByTestId('selection-bar');
    expect(bar.getAttribute('role')).toBe('region');
    expect(within(bar).getByTestId('selection-count').textContent).toBe('1 selecionado');
    expect(within(bar).getByRole('button', { name: 'Excluir' })).toBeTruthy();
    fireEvent.click(screen.getByTestId('select-all'));
    expect(within(bar).getByTestId('selection-count').textContent).toBe('2 selecionados');
    fireEvent.click(within(bar).getByTestId('selection-clear'));
    expect(screen.queryByTestId('selection-bar')).toBeNull();
  });

  it('keeps the state of a cell when the table is drawn again with new column definitions', () => {
    const { rerender } = render(
      <DataTable data={fruits} columns={columns('Nome')} getRowId={(f) => String(f.id)} />,
    );
    const input = screen.getAllByTestId<HTMLInputElement>('note')[0] as HTMLInputElement;
    fireEvent.change(input, { target: { value: 'doce' } });
    rerender(<DataTable data={fruits} columns={columns('Fruta')} getRowId={(f) => String(f.id)} />);
    expect(screen.getAllByTestId<HTMLInputElement>('note')[0]).toBe(input);
    expect(input.value).toBe('doce');
  });

  it('draws each row with the given row component, which receives the row and its attributes', () => {
    function MarkedRow({ row, rowAttributes, children }: DataRowProps<Fruit>) {
      return (
        <tr {...rowAttributes} data-fruit={row.name}>
          {children}
        </tr>
      );
    }
    render(
      <DataTable
        data={fruits}
        columns={columns('Nome')}
        getRowId={(f) => String(f.id)}
        rowTestId={(fruit) => `fruit-${fruit.id}`}
        rowComponent={MarkedRow}
      />,
    );
    expect(screen.getByTestId('fruit-2').getAttribute('data-fruit')).toBe('Acerola');
    expect(within(screen.getByTestId('fruit-1')).getAllByRole('cell')).toHaveLength(2);
  });
});
