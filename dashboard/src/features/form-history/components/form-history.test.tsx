// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { paths } from '../../../app/paths';
import { getToasts } from '../../../components/toast-store';
import { pageFixture, projectFixture } from '../../../testing/fixtures';
import { mockApi, renderRoutes } from '../../../testing/render-route';
import { FormHistoryRoute } from '../routes/FormHistoryRoute';
import type { FormEntry } from '../types';

const routes = [{ path: paths.projectFormHistory, element: <FormHistoryRoute /> }];
const HISTORY = '/api/projects/7/form-history';

const entry = (id: number, data: string): FormEntry => ({
  id,
  project_id: 7,
  created_at: '2025-03-01T12:00:00Z',
  url: 'https://loja.example.com/contato',
  submit: 'Enviar',
  to: 'ana@example.com',
  subject: `Contato ${id}`,
  data,
});

function api(entries: FormEntry[], extra: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    'GET /api/projects/7': () => ({ json: projectFixture(7) }),
    [`GET ${HISTORY}`]: () => ({ json: { project: projectFixture(7), history: pageFixture(entries, entries.length, 1, 100, HISTORY) } }),
    ...extra,
  });
}

describe('form history', () => {
  it('shows each entry with its data as sanitised HTML', async () => {
    api([entry(1, '<p><b>Nome:</b> Ana</p><script>window.hacked = 1</script><img src="x" onerror="window.hacked = 2">')]);
    renderRoutes(routes, '/project/7/form-history');
    const data = await screen.findByTestId('entry-data');
    expect(data.querySelector('b')?.textContent).toBe('Nome:');
    expect(data.querySelector('script')).toBeNull();
    expect(data.querySelector('img')?.getAttribute('onerror')).toBeNull();
    expect(screen.getByTestId('entry-subject').textContent).toBe('Contato 1');
    expect(screen.getByText('ana@example.com')).toBeTruthy();
  });

  it('deletes the selected entries after confirmation', async () => {
    const calls = api([entry(1, '<p>a</p>'), entry(2, '<p>b</p>'), entry(3, '<p>c</p>')], {
      [`DELETE ${HISTORY}`]: () => ({ json: { deleted: 2 } }),
    });
    renderRoutes(routes, '/project/7/form-history');
    const boxes = await screen.findAllByTestId('form-entry-select');
    const remove = screen.getByTestId('form-history-delete') as HTMLButtonElement;
    expect(remove.disabled).toBe(true);
    fireEvent.click(boxes[0] as HTMLElement);
    fireEvent.click(boxes[2] as HTMLElement);
    fireEvent.click(remove);
    expect(window.confirm).toHaveBeenCalledWith('Tem certeza?');
    await waitFor(() => expect(calls.find((c) => c.method === 'DELETE')?.body).toEqual({ selected: [1, 3] }));
    await waitFor(() => expect(getToasts().map((t) => t.message)).toContain('Entradas selecionadas excluídas com sucesso.'));
  });

  it('saves the order chosen in the settings modal', async () => {
    const calls = api([entry(1, '<p>a</p>')], {
      'POST /api/projects/7/settings': () => ({ json: projectFixture(7, { meta: { formHistoryOrderBy: 'created_at' } }) }),
    });
    renderRoutes(routes, '/project/7/form-history');
    fireEvent.click(await screen.findByTestId('form-history-settings-open'));
    const select = screen.getByTestId('form-history-order') as HTMLSelectElement;
    expect(select.value).toBe('-created_at');
    fireEvent.change(select, { target: { value: 'created_at' } });
    fireEvent.click(screen.getByTestId('form-history-settings-save'));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ formHistoryOrderBy: 'created_at' }));
    await waitFor(() => expect(screen.queryByTestId('form-history-settings')).toBeNull());
    const reloads = calls.filter((c) => c.method === 'GET' && c.url.startsWith(HISTORY));
    expect(reloads.length).toBeGreaterThanOrEqual(2);
  });
});
