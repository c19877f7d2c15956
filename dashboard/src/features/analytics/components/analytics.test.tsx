// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import type uPlot from 'uplot';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AnalyticsPage } from '@/app/AnalyticsPage';
import { paths } from '@/app/paths';
import { projectFixture } from '@/testing/fixtures';
import { mockApi, renderRoutes, type ApiCall, type Handler } from '@/testing/render-route';
import { scrollsInsideItsCard } from '@/testing/tables';
import { getToasts } from '@/testing/toasts';
import type { AnalyticsReport } from '@/features/analytics/api/types';

// uPlot draws on a canvas, which jsdom does not have: the chart is a stand-in that keeps what
// the screen gave it (options and data), so the tests can read the series and run the hooks.
const charts = vi.hoisted(() => [] as { opts: uPlot.Options; data: uPlot.AlignedData }[]);
vi.mock('uplot', () => ({
  default: class {
    static pxRatio = 1;
    static tzDate = (date: Date) => date;
    constructor(opts: uPlot.Options, data: uPlot.AlignedData) {
      charts.push({ opts, data });
    }
    setSize() {}
    destroy() {}
  },
}));

// Midday UTC on 29 November 2026: "today" for the presets, whatever the machine's time zone.
const NOW = new Date('2026-11-29T12:00:00Z');
const ANALYTICS = '/api/projects/7/analytics';

const report = (overrides: Partial<AnalyticsReport> = {}): AnalyticsReport => ({
  views: 1234,
  visitors: 321,
  bots: 56,
  now: 3,
  enabled: true,
  days: [
    { date: '2026-11-27', views: 40, visitors: 12 },
    { date: '2026-11-28', views: 90, visitors: 30 },
  ],
  pages: [
    { path: '/', views: 800, visitors: 250 },
    { path: '/cardapio/bolos-de-aniversario-com-cobertura', views: 120, visitors: 60 },
  ],
  referrers: [
    { source: 'google.com', visitors: 150 },
    { source: 'direct', visitors: 100 },
  ],
  devices: [
    { device: 'mobile', visitors: 250 },
    { device: 'desktop', visitors: 60 },
    { device: 'tablet', visitors: 11 },
  ],
  languages: [{ language: 'pt-BR', visitors: 300 }],
  campaigns: [{ source: 'instagram', medium: 'social', campaign: 'natal', visitors: 40 }],
  conversions: { forms: 7, whatsapp: 21, phone: 2, email: 1 },
  not_found: [
    { path: '/promocao', views: 14 },
    { path: '/x', views: 3 },
  ],
  deploys: [{ id: 1, at: '2026-11-28T10:00:00Z' }],
  ...overrides,
});

const routes = [
  { path: '/', element: <p>home</p> },
  { path: paths.projectAnalytics.pattern, element: <AnalyticsPage /> },
];

function api(analytics: Handler, more: Record<string, Handler> = {}) {
  return mockApi({
    'GET /api/projects/7': () => ({ json: projectFixture(7) }),
    [`GET ${ANALYTICS}`]: analytics,
    ...more,
  });
}

/** The ranges the screen asked for, as `from..to`, the "now" poll (today alone) left out. */
const asked = (calls: ApiCall[]) =>
  calls
    .filter((call) => call.method === 'GET' && call.url.startsWith(ANALYTICS))
    .map((call) => new URL(call.url, 'http://x').searchParams)
    .filter((search) => search.get('from') !== search.get('to'))
    .map((search) => `${search.get('from')}..${search.get('to')}`);

const rowsOf = (testId: string) =>
  within(screen.getByTestId(testId))
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent));

beforeEach(() => {
  charts.length = 0;
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('analytics screen', () => {
  it('shows the totals, the chart with its deploy marker, and every part of the report', async () => {
    api(() => ({ json: report() }));
    renderRoutes(routes, '/project/7/analytics');
    await screen.findByTestId('analytics-totals');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Estatísticas');
    expect(screen.getByTestId('analytics-total-views').textContent).toBe('1.234');
    expect(screen.getByTestId('analytics-total-visitors').textContent).toBe('321');
    expect(screen.getByTestId('analytics-total-bots').textContent).toBe('56');
    expect(screen.getByTestId('analytics-total-now').textContent).toBe('3');
    expect(screen.getByTestId('analytics-range').textContent).toBe('De 31/10/2026 a 29/11/2026');

    expect(rowsOf('analytics-pages-table')).toEqual([
      ['/', '800', '250'],
      ['/cardapio/bolos-de-aniversario-com-cobertura', '120', '60'],
    ]);
    expect(rowsOf('analytics-referrers-table')).toEqual([
      ['google.com', '150'],
      ['Acesso direto', '100'],
    ]);
    expect(rowsOf('analytics-devices-table')).toEqual([
      ['Celular', '250'],
      ['Computador', '60'],
      ['Tablet', '11'],
    ]);
    expect(rowsOf('analytics-languages-table')).toEqual([['português (Brasil) (pt-BR)', '300']]);
    expect(rowsOf('analytics-campaigns-table')).toEqual([['natalFonte instagram · meio social', '40']]);
    expect(screen.getByTestId('analytics-conversions-forms').textContent).toBe('7');
    expect(screen.getByTestId('analytics-conversions-whatsapp').textContent).toBe('21');
    expect(screen.getByTestId('analytics-conversions-phone').textContent).toBe('2');
    expect(screen.getByTestId('analytics-conversions-email').textContent).toBe('1');
    expect(rowsOf('analytics-not-found-table')).toEqual([
      ['/promocaoCriar redirecionamento', '14'],
      ['/xCriar redirecionamento', '3'],
    ]);
    // On a phone a table wider than its card scrolls inside it, never the page.
    for (const table of document.querySelectorAll<HTMLElement>('.data-table'))
      expect(scrollsInsideItsCard(table)).toBe(true);

    // The chart: the range's 30 days (0 where the report lists none), visitors then views.
    const chart = charts.at(-1);
    expect(chart?.data[0]).toHaveLength(30);
    expect(chart?.data[1]?.slice(-3)).toEqual([12, 30, 0]);
    expect(chart?.data[2]?.slice(-3)).toEqual([40, 90, 0]);
    expect(chart?.opts.series.map((series) => series.label)).toEqual(['Dia', 'Visitantes', 'Visualizações']);
    // The deploy is a line from the plot's top to its bottom, where the x scale puts its instant.
    const lines: [number, number][] = [];
    const ctx = {
      save() {},
      restore() {},
      setLineDash() {},
      beginPath() {},
      stroke() {},
      moveTo: (x: number, y: number) => lines.push([x, y]),
      lineTo: (x: number, y: number) => lines.push([x, y]),
    };
    const drawn = { ctx, bbox: { top: 10, height: 200 }, valToPos: (value: number) => value / 1000 };
    chart?.opts.hooks?.draw?.forEach((hook) => hook?.(drawn as unknown as uPlot));
    const at = Math.round(Date.parse('2026-11-28T10:00:00Z') / 1000 / 1000);
    expect(lines).toEqual([
      [at, 10],
      [at, 210],
    ]);
    expect(screen.getByTestId('analytics-chart-description').textContent).toBe(
      'De 31/10/2026 a 29/11/2026: 42 visitantes e 130 visualizações. O dia com mais visitantes foi 28/11/2026, com 30. A linha tracejada marca 1 publicação.',
    );
  });

  it('asks for the days of the preset chosen, and of two dates picked', async () => {
    const calls = api(() => ({ json: report() }));
    const router = renderRoutes(routes, '/project/7/analytics');
    await screen.findByTestId('analytics-totals');
    expect(asked(calls)).toEqual(['2026-10-31..2026-11-29']);
    expect(screen.getByTestId('analytics-range-30d').getAttribute('aria-pressed')).toBe('true');

    fireEvent.click(screen.getByTestId('analytics-range-7d'));
    await waitFor(() => expect(asked(calls).at(-1)).toBe('2026-11-23..2026-11-29'));
    expect(router.state.location.search).toBe('?range=7d');
    expect(screen.getByTestId('analytics-range-7d').getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('analytics-range-30d').getAttribute('aria-pressed')).toBe('false');

    fireEvent.click(screen.getByTestId('analytics-range-12m'));
    await waitFor(() => expect(asked(calls).at(-1)).toBe('2025-11-30..2026-11-29'));
    fireEvent.click(screen.getByTestId('analytics-range-90d'));
    await waitFor(() => expect(asked(calls).at(-1)).toBe('2026-09-01..2026-11-29'));

    // The fields show the range on screen; a range ending after today can't be applied.
    expect(screen.getByTestId<HTMLInputElement>('analytics-from').value).toBe('2026-09-01');
    fireEvent.change(screen.getByTestId('analytics-from'), { target: { value: '2026-01-01' } });
    fireEvent.change(screen.getByTestId('analytics-to'), { target: { value: '2026-12-31' } });
    expect(screen.getByTestId<HTMLButtonElement>('analytics-apply').disabled).toBe(true);
    fireEvent.change(screen.getByTestId('analytics-to'), { target: { value: '2026-01-31' } });
    fireEvent.click(screen.getByTestId('analytics-apply'));
    await waitFor(() => expect(asked(calls).at(-1)).toBe('2026-01-01..2026-01-31'));
    expect(router.state.location.search).toBe('?from=2026-01-01&to=2026-01-31');
    expect(screen.getByTestId('analytics-range-90d').getAttribute('aria-pressed')).toBe('false');

    // Back to the default: a plain URL.
    fireEvent.click(screen.getByTestId('analytics-range-30d'));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it("creates a redirect from a 404's path with the redirects' own form", async () => {
    const calls = api(() => ({ json: report() }), {
      'POST /api/redirects': ({ body }) => ({
        status: 201,
        json: { id: 9, project_id: 7, created_at: '2026-11-29T12:00:00Z', ...(body as object) },
      }),
    });
    renderRoutes(routes, '/project/7/analytics');
    const row = (await screen.findAllByTestId('analytics-not-found-table-row'))[1] as HTMLElement;
    const action = within(row).getByTestId('analytics-create-redirect');
    expect(action.getAttribute('aria-label')).toBe('Criar redirecionamento de /x');
    fireEvent.click(action);

    const form = await screen.findByTestId('redirect-form');
    expect(within(form).getByTestId<HTMLInputElement>('redirect-from-input').value).toBe('/x');
    expect(document.activeElement).toBe(within(form).getByTestId('redirect-to-input'));
    fireEvent.change(within(form).getByTestId('redirect-to-input'), { target: { value: '/contato' } });
    const save = within(form).getByTestId<HTMLButtonElement>('redirect-save');
    await waitFor(() => expect(save.disabled).toBe(false));
    fireEvent.click(save);

    await waitFor(() => expect(screen.queryByTestId('redirect-form')).toBeNull());
    expect(calls.filter((call) => call.method === 'POST').map((call) => [call.url, call.body])).toEqual([
      ['/api/redirects', { project_id: 7, from: '/x', to: '/contato' }],
    ]);
    expect(getToasts()).toContainEqual({ kind: 'success', message: 'Redirecionamento salvo' });
  });

  it('turns analytics off for the site through the project settings, and says when it is off', async () => {
    let enabled = true;
    const calls = api(() => ({ json: report({ enabled }) }), {
      'POST /api/projects/7': ({ body }) => {
        enabled = (body as { meta: { analytics: boolean } }).meta.analytics;
        return { json: projectFixture(7, { meta: { analytics: enabled } }) };
      },
    });
    renderRoutes(routes, '/project/7/analytics');
    const toggle = await screen.findByTestId<HTMLInputElement>('analytics-toggle');
    expect(toggle.checked).toBe(true);
    expect(screen.queryByTestId('analytics-off')).toBeNull();

    fireEvent.click(toggle);
    await waitFor(() =>
      expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([
        { meta: { analytics: false } },
      ]),
    );
    // Saving refreshes the report, which now says analytics is off.
    expect((await screen.findByTestId('analytics-off')).textContent).toContain(
      'As estatísticas estão desligadas para este site',
    );
    expect(screen.getByTestId<HTMLInputElement>('analytics-toggle').checked).toBe(false);
    expect(getToasts()).toContainEqual({ kind: 'success', message: 'Estatísticas desligadas' });

    fireEvent.click(screen.getByTestId('analytics-toggle'));
    await waitFor(() => expect(screen.queryByTestId('analytics-off')).toBeNull());
    expect(calls.filter((call) => call.method === 'POST').at(-1)?.body).toEqual({
      meta: { analytics: true },
    });
  });

  it("shows the server's refusal in the interface's language", async () => {
    api(() => ({
      status: 400,
      json: { error: 'date_invalid', message: 'Dates must be YYYY-MM-DD' },
    }));
    renderRoutes(routes, '/project/7/analytics?from=2026-01-01&to=2026-01-31');
    expect((await screen.findByTestId('analytics-error')).textContent).toBe(
      'Não foi possível carregar as estatísticas: Informe as datas no formato dia, mês e ano.',
    );
    // The range can still be changed from there.
    expect(screen.getByTestId('analytics-range-7d')).toBeTruthy();
  });

  it('says a site without visitors has none yet, instead of an empty chart and tables', async () => {
    api(() => ({
      json: report({
        views: 0,
        visitors: 0,
        bots: 0,
        now: 0,
        days: [],
        pages: [],
        referrers: [],
        devices: [],
        languages: [],
        campaigns: [],
        conversions: { forms: 0, whatsapp: 0, phone: 0, email: 0 },
        not_found: [],
        deploys: [],
      }),
    }));
    renderRoutes(routes, '/project/7/analytics');
    const empty = await screen.findByTestId('analytics-empty');
    expect(within(empty).getByRole('heading').textContent).toBe('Ainda não há visitas neste período');
    expect(screen.getByTestId('analytics-total-visitors').textContent).toBe('0');
    expect(screen.queryByTestId('analytics-chart')).toBeNull();
    expect(screen.queryByTestId('analytics-pages')).toBeNull();
    expect(charts).toHaveLength(0);
  });

  it('has no serious or critical accessibility violation (axe-core)', async () => {
    api(() => ({ json: report() }));
    renderRoutes(routes, '/project/7/analytics');
    await screen.findByTestId('analytics-totals');
    const results = await axe.run(document.body, {
      runOnly: ['wcag2a', 'wcag2aa', 'best-practice'],
      // jsdom lays nothing out: colours and sizes are for the browser walk (e2e/screens.e2e.ts).
      rules: { 'color-contrast': { enabled: false }, region: { enabled: false } },
    });
    const serious = results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.html).join(' | ')}`);
    expect(serious).toEqual([]);
  });
});

describe('analytics screen: now', () => {
  it('asks for the visitors of the last 5 minutes again every 30 s, for today alone', async () => {
    vi.useRealTimers();
    vi.useFakeTimers({ shouldAdvanceTime: true, now: NOW });
    let now = 3;
    const calls = api(() => ({ json: report({ now }) }));
    renderRoutes(routes, '/project/7/analytics');
    await screen.findByTestId('analytics-totals');
    const polls = () =>
      calls.filter((call) => call.url === `${ANALYTICS}?from=2026-11-29&to=2026-11-29`).length;
    expect(screen.getByTestId('analytics-total-now').textContent).toBe('3');
    expect(polls()).toBe(0);

    now = 8;
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(polls()).toBe(1);
    await waitFor(() => expect(screen.getByTestId('analytics-total-now').textContent).toBe('8'));
    expect(asked(calls)).toEqual(['2026-10-31..2026-11-29']);
  });
});
