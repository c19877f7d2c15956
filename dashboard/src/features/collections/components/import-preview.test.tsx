// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getToasts } from '@/testing/toasts';
import { mockApi, renderRoutes } from '@/testing/render-route';
import type { ImportSummary } from '@/features/collections/api/import-table';
import { ImportButton } from './ImportButton';

/** What the server answers for a Brazilian Excel sheet whose three products are stored already. */
const excelSheet: ImportSummary = {
  dryRun: true,
  inserted: 0,
  updated: 3,
  unchanged: 0,
  refused: 0,
  problems: [],
  format: 'csv',
  encoding: 'windows-1252',
  bom: false,
  separator: ';',
  columns: [{ field: 'preco', name: 'Preço', type: 'currency' }],
  preview: [
    {
      row: 1,
      action: 'update',
      name: 'Pão de queijo',
      slug: 'pao-de-queijo',
      cells: [{ field: 'preco', written: '59', stored: 5900, display: 'R$ 59,00' }],
    },
    {
      row: 2,
      action: 'update',
      name: 'Bolo de maçã',
      slug: 'bolo-de-maca',
      cells: [{ field: 'preco', written: '59,90', stored: 5990, display: 'R$ 59,90' }],
    },
    {
      row: 3,
      action: 'update',
      name: 'Café',
      slug: 'cafe',
      cells: [{ field: 'preco', written: '1.234,56', stored: 123456, display: 'R$ 1.234,56' }],
    },
  ],
};

function pick(name: string) {
  fireEvent.change(screen.getByTestId<HTMLInputElement>('import-input'), {
    target: { files: [new File(['Nome;Preço\r\nPão de queijo;59\r\n'], name, { type: 'text/csv' })] },
  });
  return screen.findByRole('dialog', { name: `Importar "${name}"` });
}

describe('import preview', () => {
  it('shows the first rows as stored, the true counts and how the file was read, then imports', async () => {
    const calls = mockApi({
      'POST /api/tables/9/import': ({ body }) =>
        (body as { dryRun: boolean }).dryRun
          ? { json: excelSheet }
          : { json: { ...excelSheet, dryRun: false } },
    });
    renderRoutes([{ path: '/', element: <ImportButton tableId={9} /> }], '/');
    const dialog = await pick('produtos.csv');
    await within(dialog).findByTestId('import-preview-table');
    expect(within(dialog).getByTestId('import-preview-read').textContent).toBe(
      'Arquivo lido como windows-1252, separado por ponto e vírgula.',
    );
    expect(
      within(dialog)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['A inserir: 0', 'A atualizar: 3', 'Sem alteração: 0', 'Recusadas: 0']);
    const rows = within(dialog)
      .getAllByTestId('import-preview-row')
      .map((row) => Array.from(row.querySelectorAll('td')).map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['1', 'Atualizar', 'Pão de queijo', '59 → R$ 59,00'],
      ['2', 'Atualizar', 'Bolo de maçã', '59,90 → R$ 59,90'],
      ['3', 'Atualizar', 'Café', '1.234,56 → R$ 1.234,56'],
    ]);
    expect(
      within(dialog)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Linha', 'Ação', 'Nome', 'Preço']);
    // Nothing was written by the preview.
    expect(calls.map((call) => (call.body as { dryRun: boolean }).dryRun)).toEqual([true]);

    fireEvent.click(within(dialog).getByTestId('import-confirm'));
    await waitFor(() =>
      expect(getToasts()).toContainEqual({
        kind: 'success',
        message: 'Importação concluída: 0 inseridos, 3 atualizados, 0 sem alteração',
      }),
    );
    expect(calls.map((call) => (call.body as { dryRun: boolean }).dryRun)).toEqual([true, false]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('lists refused rows in words and offers no import while a row is refused', async () => {
    const calls = mockApi({
      'POST /api/tables/9/import': () => ({
        json: {
          ...excelSheet,
          updated: 2,
          refused: 1,
          problems: [
            {
              row: 3,
              column: 'preco',
              code: 'value_amount_unreadable',
              message: 'Preço must be an amount written like 59 or 1.234,56, not "12,3x"',
              params: { field: 'Preço', value: '12,3x', example: '1.234,56' },
            },
          ],
          preview: [
            ...excelSheet.preview.slice(0, 2),
            {
              row: 3,
              action: 'refused',
              name: 'Café',
              slug: '',
              cells: [{ field: 'preco', written: '12,3x', stored: null, display: '' }],
            },
          ],
        },
      }),
    });
    renderRoutes([{ path: '/', element: <ImportButton tableId={9} /> }], '/');
    const dialog = await pick('produtos.csv');
    const problems = await within(dialog).findByTestId('import-preview-problems');
    expect(
      Array.from(
        within(problems).getAllByTestId('import-preview-problem')[0]?.querySelectorAll('td') ?? [],
      ).map((cell) => cell.textContent),
    ).toEqual(['3', 'preco', 'Preço: "12,3x" não é um valor; escreva como 59 ou 1.234,56.']);
    expect(within(dialog).getByTestId('import-count-refused').textContent).toBe('Recusadas: 1');
    expect(within(dialog).getAllByTestId('import-preview-row')[2]?.textContent).toContain('Recusada');
    expect(within(dialog).getByTestId('import-confirm')).toHaveProperty('disabled', true);
    expect(calls).toHaveLength(1);
  });

  it('says why a file cannot be read at all, and offers no import', async () => {
    mockApi({
      'POST /api/tables/9/import': () => ({
        status: 422,
        json: {
          error: 'import_column_unknown',
          message: 'Unknown column "cor"',
          params: { column: 'cor' },
          details: [
            { column: 'cor', code: 'import_column_unknown', message: 'x', params: { column: 'cor' } },
          ],
        },
      }),
    });
    renderRoutes([{ path: '/', element: <ImportButton tableId={9} /> }], '/');
    const dialog = await pick('cores.csv');
    expect((await within(dialog).findByTestId('import-preview-error')).textContent).toBe(
      'Coluna desconhecida "cor": não corresponde ao slug nem ao nome de nenhum campo.',
    );
    expect(within(dialog).getByTestId('import-confirm')).toHaveProperty('disabled', true);
  });
});
