// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getToasts } from '@/testing/toasts';
import { mockApi, renderRoutes } from '@/testing/render-route';
import { ImportButton } from './ImportButton';
import type { ImportSummary } from '@/features/collections/api/import-table';

/** An import's answer: nothing refused, `counts` as given. */
function summary(counts: Partial<ImportSummary> = {}): ImportSummary {
  return {
    dryRun: false,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    refused: 0,
    problems: [],
    format: 'csv',
    encoding: 'UTF-8',
    bom: false,
    separator: ',',
    columns: [],
    preview: [],
    ...counts,
  };
}

/** Answers the dry run with `preview` and the import with `done`. */
function answers(
  preview: ImportSummary,
  done: { status?: number; json: unknown } = { json: summary({ inserted: 2 }) },
) {
  return ({ body }: { body: unknown }) =>
    (body as { dryRun?: boolean }).dryRun ? { json: { ...preview, dryRun: true } } : done;
}

/** Picks the file and confirms the import dialog (upsert, the default, unless `insert`). */
async function choose(name: string, mode: 'upsert' | 'insert' = 'upsert') {
  const input = screen.getByTestId<HTMLInputElement>('import-input');
  fireEvent.change(input, {
    target: { files: [new File(['name,slug,price\nA,a,x'], name, { type: 'text/csv' })] },
  });
  const dialog = await screen.findByRole('dialog', { name: `Importar "${name}"` });
  if (mode === 'insert')
    fireEvent.click(within(dialog).getByLabelText('Inserir todas as linhas como cadastros novos'));
  const confirm = within(dialog).getByTestId('import-confirm');
  await waitFor(() => expect(confirm).toHaveProperty('disabled', false));
  fireEvent.click(confirm);
  await waitFor(() => expect(screen.queryByTestId('import-dialog')).toBeNull());
}

describe('import', () => {
  it('asks how to treat records that exist, upsert by default, and sends the choice', async () => {
    const calls = mockApi({
      'POST /api/tables/9/import': answers(summary({ inserted: 1 }), { json: summary() }),
    });
    renderRoutes([{ path: '/', element: <ImportButton tableId={9} /> }], '/');
    await choose('produtos.csv');
    await choose('novos.csv', 'insert');
    const real = () => calls.filter((call) => !(call.body as { dryRun: boolean }).dryRun);
    await waitFor(() => expect(real()).toHaveLength(2));
    expect(real().map((call) => (call.body as { mode: string }).mode)).toEqual(['upsert', 'insert']);
    expect((real()[0]?.body as { name: string }).name).toBe('produtos.csv');
    // Each choice was previewed first, in each mode chosen.
    expect(
      calls
        .filter((call) => (call.body as { dryRun: boolean }).dryRun)
        .map((call) => (call.body as { mode: string }).mode),
    ).toEqual(['upsert', 'upsert', 'insert']);
  });

  it('writes nothing when the dialog is cancelled after its preview', async () => {
    const calls = mockApi({ 'POST /api/tables/9/import': answers(summary({ inserted: 1 })) });
    renderRoutes([{ path: '/', element: <ImportButton tableId={9} /> }], '/');
    fireEvent.change(screen.getByTestId<HTMLInputElement>('import-input'), {
      target: { files: [new File(['name\nA'], 'a.csv', { type: 'text/csv' })] },
    });
    const dialog = await screen.findByRole('dialog', { name: 'Importar "a.csv"' });
    await within(dialog).findByText('A inserir: 1');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByTestId('import-dialog')).toBeNull());
    expect(calls.map((call) => (call.body as { dryRun: boolean }).dryRun)).toEqual([true]);
  });
});

describe('import errors', () => {
  it('opens a dialog listing each row and column with its message', async () => {
    const calls = mockApi({
      'POST /api/tables/9/import': answers(summary({ inserted: 2 }), {
        status: 422,
        json: {
          error: 'import_invalid',
          message: 'The file has 2 invalid rows',
          details: [
            { row: 3, column: 'price', message: 'not a number' },
            { row: 5, column: 'slug', message: 'slug already in use' },
          ],
        },
      }),
    });
    renderRoutes([{ path: '/', element: <ImportButton tableId={9} /> }], '/');
    await choose('produtos.csv');
    const dialog = await screen.findByRole('dialog', { name: 'Não foi possível importar "produtos.csv"' });
    expect(within(dialog).getByTestId('import-errors-message').textContent).toBe(
      'The file has 2 invalid rows',
    );
    const rows = within(dialog)
      .getAllByTestId('import-error-row')
      .map((row) => Array.from(row.querySelectorAll('td')).map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['3', 'price', 'not a number'],
      ['5', 'slug', 'slug already in use'],
    ]);
    expect(
      within(dialog)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Linha', 'Coluna', 'Problema']);
    expect(calls).toHaveLength(2);
    fireEvent.click(within(dialog).getByTestId('import-errors-close'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('toasts a refusal without details, and the count on success', async () => {
    let answer: { status: number; json: unknown } = {
      status: 413,
      json: { error: 'file_too_large', message: 'The file is too large (10 MB at most)', params: { mb: 10 } },
    };
    mockApi({
      'POST /api/tables/9/import': ({ body }) =>
        (body as { dryRun: boolean }).dryRun ? { json: summary({ inserted: 1000 }) } : answer,
    });
    renderRoutes([{ path: '/', element: <ImportButton tableId={9} /> }], '/');
    await choose('a.csv');
    await waitFor(() =>
      expect(getToasts()).toContainEqual({
        kind: 'error',
        message: 'O arquivo é grande demais (no máximo 10 MB).',
      }),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    answer = { status: 200, json: summary({ inserted: 1000 }) };
    await choose('b.csv');
    await waitFor(() =>
      expect(getToasts()).toContainEqual({
        kind: 'success',
        message: '1000 cadastros inseridos com sucesso',
      }),
    );
  });
});
