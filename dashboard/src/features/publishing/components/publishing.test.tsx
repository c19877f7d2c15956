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
const PUBLISH = 'POST /api/publish_v2/7/events';
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

/** A live project whose unpublish call succeeds and takes it offline. */
function liveSiteThatUnpublishes() {
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
  return server;
}

/**
 * A `text/event-stream` answer the test writes event by event, as the server does while a
 * build runs.
 */
function eventStream() {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>({ start: (c) => (controller = c) });
  const encoder = new TextEncoder();
  return {
    response: new Response(body, { headers: { 'Content-Type': 'text/event-stream' } }),
    send: (event: string, data: unknown) =>
      controller?.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)),
    close: () => controller?.close(),
  };
}

/** A whole stream at once: `events` in order, then the end. */
function streamed(...events: [string, unknown][]): Response {
  const stream = eventStream();
  events.forEach(([event, data]) => stream.send(event, data));
  stream.close();
  return stream.response;
}

/** The lines the progress shows, in order, each with whether it is done. */
const progressLines = () =>
  screen
    .getAllByTestId('deploy-step')
    .map(
      (line) =>
        [line.textContent?.replace('✓', '').trim(), line.getAttribute('data-done') === 'true'] as const,
    );

afterEach(() => {
  vi.useRealTimers();
});

describe('publish modal', () => {
  it("shows the build's steps as the server streams them, then the live address", async () => {
    const stream = eventStream();
    const { calls } = api(false, { data: [], active_deploy_id: null }, { [PUBLISH]: () => stream.response });
    renderRoutes(routes, '/project/7');
    fireEvent.click(await screen.findByRole('button', { name: /Estado: Não publicado/ }));
    expect(screen.getByRole('dialog', { name: 'Publicar' })).toBeTruthy();

    fireEvent.click(screen.getByTestId('publish-confirm'));
    await waitFor(() => expect(progressLines()).toEqual([['Conectando ao servidor de deploy…', false]]));
    expect(calls.find((call) => call.method === 'POST')).toEqual({
      method: 'POST',
      url: '/api/publish_v2/7/events',
      body: { project_id: 7, token: 'tok' },
    });

    stream.send('step', { step: 'started', deploy_id: 3, pages: 2 });
    stream.send('step', { step: 'fonts', faces: 2 });
    await waitFor(() =>
      expect(progressLines()).toEqual([
        ['Preparando 2 página(s)…', true],
        ['Fontes prontas: 2', false],
      ]),
    );
    stream.send('step', { step: 'page', index: 1, total: 2, name: 'Início' });
    await waitFor(() => expect(progressLines().at(-1)).toEqual(['Página 1 de 2 pronta: Início', false]));
    // The next page replaces the previous one: one line for the pages.
    stream.send('step', { step: 'page', index: 2, total: 2, name: 'Contato & Mapa' });
    await waitFor(() =>
      expect(progressLines().at(-1)).toEqual(['Página 2 de 2 pronta: Contato & Mapa', false]),
    );
    stream.send('step', { step: 'assets', files: 12, bytes: 1_536 });
    stream.send('step', { step: 'live' });
    await waitFor(() =>
      expect(progressLines()).toEqual([
        ['Preparando 2 página(s)…', true],
        ['Fontes prontas: 2', true],
        ['Página 2 de 2 pronta: Contato & Mapa', true],
        ['Arquivos gravados: 12 (1,5 kB)', true],
        ['Colocando o site no ar…', false],
      ]),
    );
    expect(screen.getByTestId('deploy-progress').getAttribute('data-step')).toBe('live');
    expect(screen.queryByTestId('publish-url')).toBeNull();

    stream.send('result', { deploy: deploy(3), url: 'http://loja-da-ana.localhost:8081' });
    stream.close();
    expect((await screen.findByTestId('publish-url')).getAttribute('href')).toBe(
      'http://loja-da-ana.localhost:8081',
    );
    expect(screen.queryByTestId('deploy-progress')).toBeNull();
  });

  it('shows the error event of a failed build in the Response box, with its status and code', async () => {
    api(
      false,
      { data: [], active_deploy_id: null },
      {
        [PUBLISH]: () =>
          streamed(
            ['step', { step: 'started', deploy_id: 3, pages: 1 }],
            [
              'error',
              {
                status: 422,
                error: 'template_error',
                message: 'Template error on page "Início" in block "quebrado": unexpected end',
                field: 'blocks',
                params: { page: 'Início', block: 'quebrado', detail: 'unexpected end' },
              },
            ],
          ),
      },
    );
    renderRoutes(routes, '/project/7');
    fireEvent.click(await screen.findByTestId('project-state'));
    fireEvent.click(screen.getByTestId('publish-confirm'));
    await screen.findByTestId('response-box');
    const shown = JSON.parse(screen.getByTestId('response-body').textContent ?? '') as Record<
      string,
      unknown
    >;
    expect(shown.status).toBe(422);
    expect(shown.error).toBe('template_error');
    expect(screen.getByTestId('project-state').textContent).toBe('Não publicado');
    expect(screen.getByTestId('publish-retry')).toBeTruthy();
  });

  it('says the connection dropped when the stream ends without a result', async () => {
    api(
      false,
      { data: [], active_deploy_id: null },
      { [PUBLISH]: () => streamed(['step', { step: 'live' }]) },
    );
    renderRoutes(routes, '/project/7');
    fireEvent.click(await screen.findByTestId('project-state'));
    fireEvent.click(screen.getByTestId('publish-confirm'));
    await screen.findByTestId('response-box');
    expect(screen.getByTestId('response-body').textContent).toContain(
      'A conexão caiu antes do fim da publicação',
    );
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
          return streamed([
            'result',
            {
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
          ]);
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
          return streamed(['result', { deploy: deploy(3), url: 'https://loja.example.com' }]);
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

  it('says the preview address goes live while the custom domain waits for DNS, and when it is checked next', async () => {
    const pending = {
      domain: 'www.x.com.br',
      meta: {},
      domain_check: {
        domain: 'www.x.com.br',
        checks: 1,
        last_result: null,
        checked_at: '2025-03-02T10:00:00Z',
        next_check_at: '2025-03-02T10:04:00Z',
        created_at: '2025-03-02T10:00:00Z',
      },
    };
    let published = false;
    mockApi({
      [PROJECT]: () => ({ json: projectFixture(7, { is_published: published, ...pending }) }),
      [DEPLOYS]: () => ({ json: { data: [], active_deploy_id: null } }),
      [PUBLISH]: () => {
        published = true;
        return streamed(['result', { deploy: deploy(3), url: 'http://loja-da-ana.localhost:8080' }]);
      },
    });
    renderRoutes(routes, '/project/7');
    fireEvent.click(await screen.findByTestId('project-state'));
    expect(screen.getByTestId('publish-confirm-text').textContent).toBe(
      'Publicar "Loja da Ana"? O site ficará disponível em http://loja-da-ana.localhost:8080. ' +
        'O domínio www.x.com.br ainda aguarda o DNS: o site passa a responder nele assim que os registros estiverem no lugar.',
    );
    expect(screen.getByTestId('publish-next-check').textContent).toMatch(
      /^Próxima verificação em \d{2}\/\d{2}\/2025 \d{2}:\d{2}$/,
    );
    fireEvent.click(screen.getByTestId('publish-confirm'));
    expect((await screen.findByTestId('publish-url')).getAttribute('href')).toBe(
      'http://loja-da-ana.localhost:8080',
    );
    const note = screen.getByTestId('publish-pending-domain');
    expect(note.textContent).toContain('O domínio www.x.com.br aguarda o DNS');
    expect(within(note).getByTestId('publish-next-check')).toBeTruthy();
  });

  it('names the verified custom domain as the address, with no pending note', async () => {
    mockApi({
      [PROJECT]: () => ({
        json: projectFixture(7, {
          is_published: false,
          domain: 'loja.example.com',
          meta: { verified: true, verifiedDomain: 'loja.example.com' },
          domain_check: null,
        }),
      }),
      [DEPLOYS]: () => ({ json: { data: [], active_deploy_id: null } }),
    });
    renderRoutes(routes, '/project/7');
    fireEvent.click(await screen.findByTestId('project-state'));
    expect(screen.getByTestId('publish-confirm-text').textContent).toBe(
      'Publicar "Loja da Ana"? O site ficará disponível em https://loja.example.com.',
    );
    expect(screen.queryByTestId('publish-next-check')).toBeNull();
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
    const server = liveSiteThatUnpublishes();
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

/** Opens the publish dropdown from the keyboard and returns its items' texts. */
async function openPublishMenu(): Promise<string[]> {
  const trigger = await screen.findByTestId('publish-menu');
  trigger.focus();
  fireEvent.keyDown(trigger, { key: 'ArrowDown' });
  fireEvent.keyUp(trigger, { key: 'ArrowDown' });
  await screen.findByRole('menu');
  return screen.getAllByRole('menuitem').map((item) => item.textContent ?? '');
}

/** Runs one item of the open dropdown, as Enter on it does. */
function choose(testId: string) {
  const item = screen.getByTestId(testId);
  fireEvent.keyDown(item, { key: 'Enter' });
  fireEvent.keyUp(item, { key: 'Enter' });
}

describe('publish dropdown', () => {
  it('offers Unpublish for a live site, says what happens, and takes the site offline', async () => {
    const server = liveSiteThatUnpublishes();
    renderRoutes(routes, '/project/7');
    expect((await screen.findByTestId('publish-menu')).textContent).toContain('Site: Publicado');
    expect(await openPublishMenu()).toEqual(['Publicar nova versão', 'Despublicar', 'Domínio…']);
    choose('publish-menu-unpublish');

    const dialog = await screen.findByRole('dialog', { name: 'Despublicar' });
    expect(dialog.textContent).toContain(
      'Despublicar "Loja da Ana"? O site em http://loja-da-ana.localhost:8080 sai do ar: quem visitar o endereço não verá mais as páginas. Os deploys continuam no histórico, e você pode publicar de novo quando quiser.',
    );
    // Nothing happens before the confirmation.
    expect(server.calls.some((call) => call.method === 'POST')).toBe(false);
    fireEvent.click(screen.getByTestId('unpublish-confirm'));
    await screen.findByTestId('unpublish-success');
    expect(server.calls.filter((call) => call.method === 'POST').map((call) => call.url)).toEqual([
      '/api/unpublish/7',
    ]);
    fireEvent.click(screen.getByTestId('unpublish-done'));
    await waitFor(() =>
      expect(screen.getByTestId('publish-menu').textContent).toContain('Site: Não publicado'),
    );
    // An offline site has nothing to unpublish.
    expect(await openPublishMenu()).toEqual(['Publicar', 'Domínio…']);
  });

  it('publishes and opens the domain modal from the dropdown', async () => {
    api(false, { data: [], active_deploy_id: null });
    renderRoutes(routes, '/project/7');
    await openPublishMenu();
    choose('publish-menu-publish');
    expect(await screen.findByRole('dialog', { name: 'Publicar' })).toBeTruthy();
    fireEvent.keyDown(screen.getByTestId('publish-confirm'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('publish-modal')).toBeNull());

    await openPublishMenu();
    choose('publish-menu-domain');
    expect(await screen.findByTestId('configure-domain-modal')).toBeTruthy();
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

  it("shows a failed deploy's reason from its code, in the interface's language", async () => {
    api(true, {
      data: [
        deploy(6, {
          status: 'failed',
          error: 'The published site is too large: its index of pages, redirects and templates takes 2346 KB',
          error_code: 'site_too_large',
          error_params: { size_kb: 2346, max_kb: 2048 },
          files: 0,
          bytes: 0,
        }),
        deploy(4),
      ],
      active_deploy_id: 4,
    });
    renderRoutes(routes, '/project/7');
    const [failed] = (await screen.findAllByTestId('deploy-row')) as [HTMLElement];
    expect(within(failed).getByTestId('deploy-error').textContent).toBe(
      'O site publicado é grande demais: o índice de páginas, redirecionamentos e modelos ocupa 2346 KB, e o máximo é 2048 KB. Remova redirecionamentos ou páginas e publique de novo.',
    );
  });

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
