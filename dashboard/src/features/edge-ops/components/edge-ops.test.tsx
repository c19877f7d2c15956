// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Layout } from '@/app/Layout';
import { paths } from '@/app/paths';
import { RequireAdmin } from '@/app/RequireAdmin';
import { setLanguage } from '@/lib/i18n';
import type { User } from '@/lib/types';
import { mockApi, renderRoutes, type Handler } from '@/testing/render-route';
import { EdgeOpsRoute } from '@/features/edge-ops/routes/EdgeOpsRoute';
import type { EdgeNode, EdgeOverview } from '@/features/edge-ops/types';

const me = (isAdmin = true): User => ({
  id: 1,
  name: 'Ana',
  email: 'ana@example.com',
  language: 'pt-BR',
  currency: 'BRL',
  business_id: null,
  is_admin: isAdmin,
  is_business_admin: false,
  permissions: {},
  created_at: '2025-01-01T00:00:00Z',
});

// Midday UTC: the dates read the same in any time zone the tests run in.
const NOW = '2026-11-24T12:00:00Z';

const healthy = (overrides: Partial<EdgeNode> = {}): EdgeNode => ({
  id: 'edge-a',
  version: '0.1.0',
  region: 'sa-east',
  started_at: '2026-11-24T11:00:00Z',
  last_seen_at: '2026-11-24T11:59:58Z',
  stale: false,
  requests: 123456,
  errors: 12,
  p99_ms: 4.2,
  cache_hit_ratio: 0.981,
  certificates: 3,
  recent_errors: [
    { at: '2026-11-24T11:58:00Z', status: 404, host: 'b.example.com', path: '/missing' },
    { at: '2026-11-24T11:59:00Z', status: 502, host: 'a.example.com', path: '/x' },
  ],
  history: [
    { at: '2026-11-24T11:59:48Z', requests: 90, errors: 0 },
    { at: '2026-11-24T11:59:53Z', requests: 120, errors: 2 },
    { at: '2026-11-24T11:59:58Z', requests: 1500, errors: 1 },
  ],
  ...overrides,
});

/** Silent since 11:58:45 (75 s before NOW), up since two days and three hours ago, never served. */
const stale = (): EdgeNode => ({
  id: 'edge-b',
  version: '0.1.0',
  region: 'us-east',
  started_at: '2026-11-22T09:00:00Z',
  last_seen_at: '2026-11-24T11:58:45Z',
  stale: true,
  requests: 0,
  errors: 0,
  p99_ms: null,
  cache_hit_ratio: null,
  certificates: 0,
  recent_errors: [],
  history: [],
});

const overview = (nodes: EdgeNode[], now = NOW): EdgeOverview => ({ now, stale_after_seconds: 30, nodes });

const routes = [
  {
    element: <Layout />,
    children: [
      { element: <RequireAdmin />, children: [{ path: paths.erpEdges.pattern, element: <EdgeOpsRoute /> }] },
    ],
  },
];

function api(edges: Handler, user: User = me()) {
  return mockApi({ 'GET /api/user': () => ({ json: user }), 'GET /api/edges': edges });
}

const row = (id: string) => screen.getByTestId(`edge-ops-row-${id}`);
const cell = (id: string, name: string) => within(row(id)).getByTestId(`edge-ops-${name}`).textContent;
const edgeCalls = (calls: { url: string }[]) => calls.filter((call) => call.url === '/api/edges').length;

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('ops screen (/erp/edges)', () => {
  it('keeps users who are not administrators out, without asking for the nodes', async () => {
    const calls = api(() => ({ json: overview([healthy()]) }), me(false));
    renderRoutes(routes, '/erp/edges');
    await screen.findByTestId('forbidden');
    expect(edgeCalls(calls)).toBe(0);
  });

  it("lists every node's heartbeat figures in the active locale (pt-BR by default)", async () => {
    api(() => ({ json: overview([healthy()]) }));
    renderRoutes(routes, '/erp/edges');
    await screen.findByTestId('edge-ops-table');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Nós de borda');
    expect(within(row('edge-a')).getByTestId('edge-ops-select').textContent).toBe('edge-a');
    expect(cell('edge-a', 'region')).toBe('sa-east');
    expect(cell('edge-a', 'version')).toBe('0.1.0');
    expect(cell('edge-a', 'health')).toBe('saudável');
    expect(cell('edge-a', 'uptime')).toBe('1 h 0 min');
    expect(cell('edge-a', 'requests')).toBe('123.456');
    expect(cell('edge-a', 'errors')).toBe('12 (0,01%)');
    expect(cell('edge-a', 'p99')).toBe('4,2 ms');
    expect(cell('edge-a', 'cache')).toBe('98,1%');
    expect(cell('edge-a', 'certificates')).toBe('3');
    expect(cell('edge-a', 'last-seen')).toBe('há 2 s');
    expect(within(row('edge-a')).getByText('há 2 s').getAttribute('datetime')).toBe('2026-11-24T11:59:58Z');
    expect(screen.getByTestId('edge-ops-summary').textContent).toBe('1 nó registrado');
    expect(screen.queryByTestId('edge-ops-stale-summary')).toBeNull();
    expect(row('edge-a').dataset.stale).toBe('false');
  });

  it('flags a stale node with how long it has been silent and lists it first', async () => {
    api(() => ({ json: overview([healthy(), stale()]) }));
    renderRoutes(routes, '/erp/edges');
    await screen.findByTestId('edge-ops-table');
    const rows = screen.getAllByTestId(/^edge-ops-row-/);
    expect(rows.map((r) => r.dataset.testid)).toEqual(['edge-ops-row-edge-b', 'edge-ops-row-edge-a']);
    expect(row('edge-b').dataset.stale).toBe('true');
    expect(row('edge-b').classList.contains('is-stale')).toBe(true);
    const badge = within(row('edge-b')).getByText('sem sinal — nenhum heartbeat há 75 s');
    expect(badge.classList.contains('badge-danger')).toBe(true);
    expect(screen.getByTestId('edge-ops-stale-summary').textContent).toBe(
      '1 nó sem heartbeat há mais de 30 s.',
    );
    expect(screen.getByTestId('edge-ops-summary').textContent).toBe('2 nós registrados');
    // Figures of a node that never served a request.
    expect(cell('edge-b', 'uptime')).toBe('2 d 3 h');
    expect(cell('edge-b', 'errors')).toBe('0');
    expect(cell('edge-b', 'p99')).toBe('—');
    expect(cell('edge-b', 'cache')).toBe('—');
    expect(cell('edge-b', 'last-seen')).toBe('há 1 min 15 s');
  });

  it("shows the selected node's recent errors, newest first, and its requests chart", async () => {
    api(() => ({ json: overview([healthy(), stale()]) }));
    renderRoutes(routes, '/erp/edges');
    await screen.findByTestId('edge-ops-table');
    // The stale node comes first and is selected first: it has no errors and no history yet.
    const detail = () => screen.getByTestId('edge-ops-detail');
    expect(within(detail()).getByRole('heading', { level: 2 }).textContent).toBe('Nó edge-b');
    expect(within(detail()).getByTestId('edge-ops-no-recent-errors').textContent).toBe(
      'Nenhum erro recente.',
    );
    expect(within(detail()).getByTestId('edge-ops-chart-empty')).toBeTruthy();

    const select = within(row('edge-a')).getByTestId('edge-ops-select');
    fireEvent.click(select);
    expect(select.getAttribute('aria-pressed')).toBe('true');
    expect(row('edge-a').classList.contains('is-selected')).toBe(true);
    expect(within(detail()).getByRole('heading', { level: 2 }).textContent).toBe('Nó edge-a');
    const errors = within(detail()).getAllByTestId('edge-ops-recent-error');
    expect(errors.map((e) => [...e.querySelectorAll('td')].slice(1).map((td) => td.textContent))).toEqual([
      ['502', 'a.example.com', '/x'],
      ['404', 'b.example.com', '/missing'],
    ]);
    const firstTime = errors[0]?.querySelector('time');
    expect(firstTime?.getAttribute('datetime')).toBe('2026-11-24T11:59:00Z');
    expect(firstTime?.textContent).toContain('24/11/2026');

    const chart = within(detail()).getByRole('img', { name: 'Requisições por intervalo' });
    expect(chart.getAttribute('aria-describedby')).toBeTruthy();
    const description = chart.querySelector('desc')?.textContent ?? '';
    expect(description).toContain('3 intervalos');
    expect(description).toContain('o máximo por intervalo, requisições: 1.500, erros: 2');
    expect(description).toContain('no último, requisições: 1.500, erros: 1.');
    const requests = within(detail()).getByTestId('edge-ops-chart-requests').getAttribute('points') ?? '';
    const errorsLine = within(detail()).getByTestId('edge-ops-chart-errors').getAttribute('points') ?? '';
    expect(requests.split(' ')).toHaveLength(3);
    expect(errorsLine.split(' ')).toHaveLength(3);
    // The axis: whole, round lines (the peak is 1 500), each labelled once.
    const axis = [...chart.querySelectorAll('.edge-chart-axis text')].map((text) => text.textContent);
    expect(axis.slice(0, 3)).toEqual(['0', '1.000', '2.000']);
    // Oldest left, newest right; the peak (1 500) high, a quiet interval near the bottom.
    const ys = requests.split(' ').map((point) => Number(point.split(',')[1]));
    const xs = requests.split(' ').map((point) => Number(point.split(',')[0]));
    expect(xs[0]).toBeLessThan(xs[1] ?? 0);
    expect(xs[1]).toBeLessThan(xs[2] ?? 0);
    expect(ys[2]).toBeLessThan(ys[0] ?? 0);
    expect(within(detail()).getByText('Requisições', { selector: 'figcaption span' })).toBeTruthy();
  });

  it('says so when no edge node has sent a heartbeat', async () => {
    api(() => ({ json: overview([]) }));
    renderRoutes(routes, '/erp/edges');
    expect((await screen.findByTestId('edge-ops-empty')).textContent).toBe(
      'Nenhum nó de borda enviou heartbeat ainda.',
    );
    expect(screen.queryByTestId('edge-ops-table')).toBeNull();
  });

  it("shows the server's message when the nodes cannot be loaded", async () => {
    api(() => ({ status: 404, json: { error: 'not_found', message: 'Not found' } }));
    renderRoutes(routes, '/erp/edges');
    expect((await screen.findByTestId('edge-ops-error')).textContent).toBe(
      'Não foi possível carregar os nós de borda: Não encontrado',
    );
    expect(screen.getByTestId('edge-ops-refresh')).toBeTruthy();
  });

  it('asks again every 5 s, keeping the last figures on screen (no loader, no spinner) until the answer', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const second = deferred<{ json: EdgeOverview }>();
    const answers: Array<
      () => Promise<{ json?: unknown; status?: number }> | { json?: unknown; status?: number }
    > = [
      () => ({ json: overview([healthy({ requests: 100, errors: 0 })]) }),
      () => second.promise,
      () => ({
        status: 503,
        json: { error: 'database_unavailable', message: 'The database is not answering right now' },
      }),
    ];
    let served = 0;
    const calls = api(() => (answers[Math.min(served++, answers.length - 1)] ?? answers[0]!)());
    renderRoutes(routes, '/erp/edges');
    await screen.findByTestId('edge-ops-table');
    expect(cell('edge-a', 'requests')).toBe('100');
    expect(edgeCalls(calls)).toBe(1);

    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(edgeCalls(calls)).toBe(2);
    // While the poll runs, the previous answer stays as it was.
    expect(cell('edge-a', 'requests')).toBe('100');
    expect(document.querySelector('.page-loader')).toBeNull();
    expect(screen.queryByTestId('global-spinner')).toBeNull();

    second.resolve({
      json: overview(
        [healthy({ requests: 250, errors: 5, last_seen_at: '2026-11-24T12:00:03Z' })],
        '2026-11-24T12:00:05Z',
      ),
    });
    await waitFor(() => expect(cell('edge-a', 'requests')).toBe('250'));
    expect(cell('edge-a', 'errors')).toBe('5 (2%)');
    expect(cell('edge-a', 'last-seen')).toBe('há 2 s');

    // A failed poll is reported above the last good figures instead of replacing them.
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(edgeCalls(calls)).toBe(3);
    expect((await screen.findByTestId('edge-ops-refresh-error')).textContent).toBe(
      'Falha ao atualizar; mostrando os últimos dados recebidos. O banco de dados não está respondendo agora; tente de novo em instantes.',
    );
    expect(cell('edge-a', 'requests')).toBe('250');
  });

  it('asks again at once from the refresh button', async () => {
    let requests = 100;
    const calls = api(() => ({ json: overview([healthy({ requests })]) }));
    renderRoutes(routes, '/erp/edges');
    await screen.findByTestId('edge-ops-table');
    requests = 4321;
    fireEvent.click(screen.getByTestId('edge-ops-refresh'));
    await screen.findByText('4.321');
    expect(screen.getByTestId('edge-ops-refresh').textContent).toBe('Atualizar');
    expect(edgeCalls(calls)).toBe(2);
  });

  it('speaks English when chosen, numbers included', async () => {
    api(() => ({ json: overview([healthy(), stale()]) }));
    setLanguage('en');
    try {
      renderRoutes(routes, '/erp/edges');
      await screen.findByTestId('edge-ops-table');
      expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Edge nodes');
      expect(screen.getByRole('columnheader', { name: 'Last seen' })).toBeTruthy();
      expect(cell('edge-a', 'health')).toBe('healthy');
      expect(cell('edge-a', 'requests')).toBe('123,456');
      expect(cell('edge-a', 'errors')).toBe('12 (0.01%)');
      expect(cell('edge-a', 'p99')).toBe('4.2 ms');
      expect(cell('edge-a', 'cache')).toBe('98.1%');
      expect(cell('edge-a', 'last-seen')).toBe('2 s ago');
      expect(cell('edge-b', 'health')).toBe('stale — no heartbeat for 75 s');
      expect(screen.getByTestId('edge-ops-stale-summary').textContent).toBe(
        '1 node without a heartbeat for more than 30 s.',
      );
      expect(screen.getByTestId('edge-ops-refresh').textContent).toBe('Refresh');
      expect(screen.getByTestId('edge-ops-no-recent-errors').textContent).toBe('No recent errors.');
      fireEvent.click(within(row('edge-a')).getByTestId('edge-ops-select'));
      expect(screen.getByRole('img', { name: 'Requests per interval' })).toBeTruthy();
      expect(screen.getAllByTestId('edge-ops-recent-error')[0]?.textContent).toContain('11/24/26');
    } finally {
      setLanguage('pt-BR');
      window.localStorage.clear();
    }
  });

  it('says so in English when no node has registered', async () => {
    api(() => ({ json: overview([]) }));
    setLanguage('en');
    try {
      renderRoutes(routes, '/erp/edges');
      expect((await screen.findByTestId('edge-ops-empty')).textContent).toBe(
        'No edge node has sent a heartbeat yet.',
      );
    } finally {
      setLanguage('pt-BR');
      window.localStorage.clear();
    }
  });
});
