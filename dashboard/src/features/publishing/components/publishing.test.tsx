// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { paths } from '@/app/paths';
import { ProjectOverviewPage } from '@/app/ProjectOverviewPage';
import { projectFixture, userFixture } from '@/testing/fixtures';
import { acceptConfirm, cancelConfirm, confirmText } from '@/testing/dialogs';
import { mockApi, renderRoutes, type Handler } from '@/testing/render-route';
import type { Deploy, DeployList } from '@/features/publishing/types';

const routes = [{ path: paths.project.pattern, element: <ProjectOverviewPage /> }];
const PROJECT = 'GET /api/projects/7';
const DEPLOYS = 'GET /api/projects/7/deploys';
const PUBLISH = 'POST /api/publish_v2/7';
const UNPUBLISH = 'POST /api/unpublish/7';

const deploy = (id: number, overrides: Partial<Deploy> = {}): Deploy => ({
  id,
  project_id: 7,
  status: 'ready',
  manifest_key: `deploys/7/${id}/manifest.json`,
  files: 12,
  bytes: 1_536,
  error: null,
  created_by: 1,
  created_at: '2025-03-01T12:34:00Z',
  finished_at: '2025-03-01T12:34:09Z',
  ...overrides,
});

/** The overview of project 7 with its deploy history; `published` is the server's state. */
function api(published: boolean, history: DeployList, extra: Record<string, Handler> = {}) {
  let isPublished = published;
  const calls = mockApi({
    [PROJECT]: () => ({ json: projectFixture(7, { is_published: isPublished, domain: null }) }),
    [DEPLOYS]: () => ({ json: history }),
    ...extra,
  });
  return { calls, setPublished: (value: boolean) => (isPublished = value) };
}

/** A promise the test resolves when it wants the server to answer. */
function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

const progressText = () => screen.getByTestId('deploy-progress').textContent?.trim();

afterEach(() => {
  vi.useRealTimers();
});

describe('publish modal', () => {
  it('cycles the four messages at 0, 2.5, 5 and 7.5 s and keeps the last until the answer', async () => {
    const answer = deferred<{ json: unknown }>();
    const { calls } = api(false, { data: [], active_deploy_id: null }, { [PUBLISH]: () => answer.promise });
    renderRoutes(routes, '/project/7');
    fireEvent.click(await screen.findByRole('button', { name: /Estado: Não publicado/ }));
    expect(screen.getByRole('dialog', { name: 'Publicar' })).toBeTruthy();

    vi.useFakeTimers();
    fireEvent.click(screen.getByTestId('publish-confirm'));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(progressText()).toBe('Conectando ao servidor de deploy…');
    await act(() => vi.advanceTimersByTimeAsync(2_499));
    expect(progressText()).toBe('Conectando ao servidor de deploy…');
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(progressText()).toBe('Convertendo links…');
    await act(() => vi.advanceTimersByTimeAsync(2_500));
    expect(progressText()).toBe('Enviando arquivos…');
    await act(() => vi.advanceTimersByTimeAsync(2_500));
    expect(progressText()).toBe('Otimizando…');
    await act(() => vi.advanceTimersByTimeAsync(20_000));
    expect(progressText()).toBe('Otimizando…');

    expect(calls.find((call) => call.method === 'POST')).toEqual({
      method: 'POST',
      url: '/api/publish_v2/7',
      body: { project_id: 7, token: 'tok' },
    });
    answer.resolve({ json: { deploy: deploy(3), url: 'http://loja-da-ana.localhost:8081' } });
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.queryByTestId('deploy-progress')).toBeNull();
    expect(screen.getByTestId('publish-url').getAttribute('href')).toBe('http://loja-da-ana.localhost:8081');
  });

  it("says what a newly published site costs a month on the owner's plan, and nothing when it is live already", async () => {
    const plans = [
      { plan: 'basic', currency: 'BRL', name: 'Básico', monthly_fee: 0, per_site: 3000, support: ['email'] },
      {
        plan: 'agency',
        currency: 'BRL',
        name: 'Agência',
        monthly_fee: 37000,
        per_site: 2000,
        support: ['email'],
      },
      {
        plan: 'agency',
        currency: 'USD',
        name: 'Agency',
        monthly_fee: 7000,
        per_site: 500,
        support: ['email'],
      },
    ];
    let owner = userFixture({ plan: 'basic', currency: 'BRL' });
    const server = api(
      false,
      { data: [], active_deploy_id: null },
      { 'GET /api/user': () => ({ json: owner }), 'GET /api/plans': () => ({ json: plans }) },
    );
    renderRoutes(routes, '/project/7');
    fireEvent.click(await screen.findByTestId('project-state'));
    expect((await screen.findByTestId('publish-cost')).textContent).toBe(
      'R$ 30,00/mês por site publicado no plano Básico.',
    );
    cleanup();

    owner = userFixture({ plan: 'agency', currency: 'USD' });
    renderRoutes(routes, '/project/7');
    fireEvent.click(await screen.findByTestId('project-state'));
    expect((await screen.findByTestId('publish-cost')).textContent).toBe(
      'US$ 5/mês por site publicado no plano Agency.',
    );
    cleanup();

    // Already published: publishing again costs nothing more, so nothing is said.
    server.setPublished(true);
    renderRoutes(routes, '/project/7');
    fireEvent.click(await screen.findByTestId('deploy-new'));
    await screen.findByTestId('publish-modal');
    // The user and the plans have been read, and still nothing is said.
    await waitFor(() =>
      expect(server.calls.filter((call) => call.url === '/api/plans').length).toBeGreaterThan(2),
    );
    await act(() => new Promise((done) => setTimeout(done, 50)));
    expect(screen.queryByTestId('publish-cost')).toBeNull();
  });

  it('lists what the server warns about next to the live address', async () => {
    const server = api(
      false,
      { data: [], active_deploy_id: null },
      {
        [PUBLISH]: () => {
          server.setPublished(true);
          return {
            json: {
              deploy: deploy(3),
              url: 'https://loja.example.com',
              warnings: [
                {
                  code: 'font_unavailable',
                  message: 'The font Lora (400 normal) could not be fetched: 404',
                  params: { family: 'Lora', weight: '400', style: 'normal', detail: '404' },
                },
              ],
            },
          };
        },
      },
    );
    renderRoutes(routes, '/project/7');
    fireEvent.click(await screen.findByTestId('project-state'));
    fireEvent.click(screen.getByTestId('publish-confirm'));
    const warnings = await screen.findByTestId('publish-warnings');
    expect(warnings.textContent).toContain('Publicado, com estas observações:');
    // The code in the interface's language, in amber (a warning, not a success).
    expect(warnings.textContent).toContain(
      'Não foi possível baixar a fonte Lora (400 normal); o site usa as fontes alternativas.',
    );
    expect(warnings.textContent).not.toContain('could not be fetched');
    expect(warnings.className).toContain('alert-warning');
    expect(warnings.closest('.alert-success')).toBeNull();
  });

  it('ends on the live address as a link and shows the project published without a reload', async () => {
    const server = api(
      false,
      { data: [], active_deploy_id: null },
      {
        [PUBLISH]: () => {
          server.setPublished(true);
          return { json: { deploy: deploy(3), url: 'https://loja.example.com' } };
        },
      },
    );
    const router = renderRoutes(routes, '/project/7');
    fireEvent.click(await screen.findByTestId('project-state'));
    fireEvent.click(screen.getByTestId('publish-confirm'));

    const link = await screen.findByTestId('publish-url');
    expect(link.getAttribute('href')).toBe('https://loja.example.com');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(screen.getByTestId('publish-success').textContent).toContain('Projeto publicado!');
    await waitFor(() => expect(screen.getByTestId('project-state').textContent).toBe('Publicado'));
    expect(router.state.location.pathname).toBe('/project/7');

    expect(screen.queryByTestId('publish-warnings')).toBeNull();

    fireEvent.click(screen.getByTestId('publish-done'));
    expect(screen.queryByTestId('publish-modal')).toBeNull();
    // Clicking the state now offers Unpublish.
    fireEvent.click(screen.getByTestId('project-state'));
    expect(screen.getByRole('dialog', { name: 'Despublicar' })).toBeTruthy();
  });

  it('shows the serialized response in a Response box when the deploy fails', async () => {
    api(
      false,
      { data: [], active_deploy_id: null },
      {
        [PUBLISH]: () => ({
          status: 502,
          json: { error: 'deploy_failed', message: 'object store unreachable' },
        }),
      },
    );
    renderRoutes(routes, '/project/7');
    fireEvent.click(await screen.findByTestId('project-state'));
    fireEvent.click(screen.getByTestId('publish-confirm'));

    const box = await screen.findByTestId('response-box');
    expect(within(box).getByText('Resposta')).toBeTruthy();
    expect(JSON.parse(screen.getByTestId('response-body').textContent ?? '')).toEqual({
      status: 502,
      error: 'deploy_failed',
      message: 'object store unreachable',
    });
    expect(screen.getByTestId('project-state').textContent).toBe('Não publicado');
    expect(screen.getByTestId('publish-retry')).toBeTruthy();
  });
  it('can be driven from the keyboard and gives focus back to the state when closed', async () => {
    api(false, { data: [], active_deploy_id: null });
    renderRoutes(routes, '/project/7');
    const state = await screen.findByTestId('project-state');
    expect(state.tagName).toBe('BUTTON');
    expect(state.getAttribute('aria-haspopup')).toBe('dialog');
    state.focus();
    fireEvent.click(state);
    expect(document.activeElement).toBe(screen.getByTestId('publish-confirm'));
    fireEvent.keyDown(screen.getByTestId('publish-confirm'), { key: 'Escape' });
    expect(screen.queryByTestId('publish-modal')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(state));
  });
});

describe('unpublish modal', () => {
  it('confirms, then says done and shows the project unpublished', async () => {
    const server = api(
      true,
      { data: [deploy(3)], active_deploy_id: 3 },
      {
        [UNPUBLISH]: () => {
          server.setPublished(false);
          return { json: { is_published: false } };
        },
      },
    );
    renderRoutes(routes, '/project/7');
    fireEvent.click(await screen.findByRole('button', { name: /Estado: Publicado/ }));
    const dialog = screen.getByRole('dialog', { name: 'Despublicar' });
    expect(dialog.textContent).toContain('http://loja-da-ana.localhost:8080');
    fireEvent.click(screen.getByTestId('unpublish-confirm'));

    expect((await screen.findByTestId('unpublish-success')).textContent).toBe('Projeto despublicado.');
    await waitFor(() => expect(screen.getByTestId('project-state').textContent).toBe('Não publicado'));
    expect(server.calls.filter((call) => call.method === 'POST').map((call) => call.url)).toEqual([
      '/api/unpublish/7',
    ]);
  });

  it('shows the serialized response when unpublishing fails', async () => {
    api(
      true,
      { data: [], active_deploy_id: null },
      {
        [UNPUBLISH]: () => new Response('Bad Gateway', { status: 502 }),
      },
    );
    renderRoutes(routes, '/project/7');
    fireEvent.click(await screen.findByTestId('project-state'));
    fireEvent.click(screen.getByTestId('unpublish-confirm'));

    await screen.findByTestId('response-box');
    expect(JSON.parse(screen.getByTestId('response-body').textContent ?? '')).toEqual({
      status: 502,
      error: 'error',
      message: 'Bad Gateway',
    });
    expect(screen.getByTestId('project-state').textContent).toBe('Publicado');
  });
});

describe('deploy history', () => {
  const history: DeployList = {
    data: [
      deploy(5, {
        status: 'failed',
        error: 'template error on page "home"',
        files: 0,
        bytes: 0,
        finished_at: null,
      }),
      deploy(4, { bytes: 2_400_000 }),
      deploy(3),
    ],
    active_deploy_id: 4,
  };

  it('lists each deploy with date and time, status, files, size, error and which one is live', async () => {
    api(true, history);
    renderRoutes(routes, '/project/7');
    const rows = await screen.findAllByTestId('deploy-row');
    expect(rows.map((row) => row.getAttribute('data-deploy-id'))).toEqual(['5', '4', '3']);
    const [failed, live, earlier] = rows as [HTMLElement, HTMLElement, HTMLElement];

    expect(within(failed).getByRole('time').textContent).toMatch(/^\d{2}\/\d{2}\/2025 \d{2}:\d{2}$/);
    expect(within(failed).getByTestId('deploy-status').textContent).toBe('Falhou');
    expect(within(failed).getByTestId('deploy-error').textContent).toBe('template error on page "home"');
    expect(within(failed).queryByTestId('deploy-rollback')).toBeNull();

    expect(live.getAttribute('aria-current')).toBe('true');
    expect(within(live).getByTestId('deploy-live').textContent).toBe('No ar');
    expect(within(live).getByTestId('deploy-size').textContent).toBe('2,4 MB');
    expect(within(live).queryByTestId('deploy-rollback')).toBeNull();

    expect(within(earlier).getByText('12')).toBeTruthy();
    expect(within(earlier).getByTestId('deploy-size').textContent).toBe('1,5 kB');
    expect(within(earlier).queryByTestId('deploy-live')).toBeNull();
    expect(within(earlier).getByRole('button', { name: /^Colocar no ar o deploy de / })).toBeTruthy();
  });

  it('marks no deploy live while the project is unpublished, and offers each ready one', async () => {
    api(false, history);
    renderRoutes(routes, '/project/7');
    const rows = await screen.findAllByTestId('deploy-row');
    expect(screen.queryByTestId('deploy-live')).toBeNull();
    expect(rows.map((row) => within(row).queryByTestId('deploy-rollback') !== null)).toEqual([
      false,
      true,
      true,
    ]);
  });

  it('rolls back: confirms, calls activate on that deploy and refreshes the history', async () => {
    let active = 4;
    const { calls } = api(true, history, {
      [DEPLOYS]: () => ({ json: { ...history, active_deploy_id: active } }),
      'POST /api/projects/7/deploys/3/activate': () => {
        active = 3;
        return { json: { deploy: deploy(3), url: 'http://loja-da-ana.localhost:8081' } };
      },
    });
    renderRoutes(routes, '/project/7');
    const earlier = (await screen.findAllByTestId('deploy-row'))[2] as HTMLElement;
    fireEvent.click(within(earlier).getByTestId('deploy-rollback'));

    expect(await confirmText()).toMatch(
      /^Colocar no ar o deploy de \d{2}\/\d{2}\/2025 \d{2}:\d{2}\? O site passa a servir essa versão imediatamente\.$/,
    );
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    await acceptConfirm();
    await waitFor(() =>
      expect(calls.filter((call) => call.method === 'POST').map((call) => call.url)).toEqual([
        '/api/projects/7/deploys/3/activate',
      ]),
    );
    await waitFor(() =>
      expect(
        screen
          .getAllByTestId('deploy-row')
          .find((row) => row.getAttribute('aria-current'))
          ?.getAttribute('data-deploy-id'),
      ).toBe('3'),
    );
    expect(calls.filter((call) => call.url === '/api/projects/7/deploys').length).toBeGreaterThanOrEqual(2);
  });

  it('shows the serialized response when the rollback fails', async () => {
    const refusal = {
      error: 'deploy_not_finished',
      message: 'Only a finished deploy can be made live; this one is building',
      field: 'deploy_id',
      params: { status: 'building' },
    };
    api(true, history, {
      'POST /api/projects/7/deploys/3/activate': () => ({
        status: 422,
        json: refusal,
      }),
    });
    renderRoutes(routes, '/project/7');
    const earlier = (await screen.findAllByTestId('deploy-row'))[2] as HTMLElement;
    fireEvent.click(within(earlier).getByTestId('deploy-rollback'));
    await acceptConfirm();
    await screen.findByTestId('response-box');
    expect(JSON.parse(screen.getByTestId('response-body').textContent ?? '')).toEqual({
      status: 422,
      ...refusal,
    });
  });

  it('does nothing when the rollback is not confirmed', async () => {
    const { calls } = api(true, history);
    renderRoutes(routes, '/project/7');
    const earlier = (await screen.findAllByTestId('deploy-row'))[2] as HTMLElement;
    fireEvent.click(within(earlier).getByTestId('deploy-rollback'));
    await cancelConfirm();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('says so when there are no deploys yet, and publishes a new version from there', async () => {
    api(false, { data: [], active_deploy_id: null });
    renderRoutes(routes, '/project/7');
    expect((await screen.findByTestId('deploys-empty')).textContent).toBe('Nenhum deploy ainda.');
    expect(screen.getByTestId('deploy-new').textContent).toBe('Publicar');
    fireEvent.click(screen.getByTestId('deploy-new'));
    expect(screen.getByRole('dialog', { name: 'Publicar' })).toBeTruthy();
  });
});
