// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { paths } from '@/app/paths';
import { ProjectOverviewPage } from '@/app/ProjectOverviewPage';
import type { Certificate, DnsFinding, ProjectDetail } from '@/lib/types';
import { projectFixture } from '@/testing/fixtures';
import { mockApi, renderRoutes, type Handler } from '@/testing/render-route';
import { reloadPage } from '@/features/domains/lib/reload-page';

// jsdom cannot reload; the tests check that the page asked for it.
vi.mock('@/features/domains/lib/reload-page', () => ({ reloadPage: vi.fn() }));

const routes = [{ path: paths.project.pattern, element: <ProjectOverviewPage /> }];
const PROJECT = 'GET /api/projects/7';
const VERIFY = 'POST /api/dns-verify';
const SAVE = 'POST /api/projects/7';
const NEXT_CHECK = '2025-03-02T10:02:00Z';
const REMOVE = 'POST /api/remove-domain/7';
const CONFIG = {
  platform_domain: 'vitrine.example',
  preview_url_template: 'http://{slug}.vitrine.example',
  public_ip: '203.0.113.7',
  cname_target: 'sites.vitrine.example',
  demo: null,
};

/** A domain the server saved as pending just now, checked again by itself at NEXT_CHECK. */
const pendingCheck = (domain: string) => ({
  domain,
  checks: 0,
  last_result: null,
  checked_at: null,
  next_check_at: NEXT_CHECK,
  created_at: '2025-03-02T10:00:00Z',
});

/**
 * The overview of project 7 as the server holds it; `setProject` changes what later GETs answer.
 * Saving a domain (Continue) keeps it as pending, as the server does.
 */
function api(overrides: Partial<ProjectDetail>, extra: Record<string, Handler> = {}) {
  let project = projectFixture(7, overrides);
  const calls = mockApi({
    [PROJECT]: () => ({ json: project }),
    [SAVE]: (call) => {
      const domain = (call.body as { domain: string }).domain;
      const check = project.domain_check?.domain === domain ? project.domain_check : pendingCheck(domain);
      project = projectFixture(7, { ...overrides, domain, domain_check: check });
      return { json: project };
    },
    'GET /api/projects/7/deploys': () => ({ json: { data: [], active_deploy_id: null } }),
    'GET /api/config': () => ({ json: CONFIG }),
    ...extra,
  });
  return { calls, setProject: (next: Partial<ProjectDetail>) => (project = projectFixture(7, next)) };
}

const unverified: Partial<ProjectDetail> = { domain: null, meta: {}, certificate: null };
const verifiedMeta = {
  verified: true,
  verifiedDomain: 'loja.example.com',
  verifiedTimestamp: '2025-03-01T12:00:00Z',
};

const posts = (calls: { method: string; url: string }[]) =>
  calls.filter((call) => call.method === 'POST').map((call) => call.url);

async function openConfigure() {
  fireEvent.click(await screen.findByTestId('configure-domain'));
  return screen.getByRole('dialog', { name: 'Configurar domínio' });
}

function type(value: string) {
  fireEvent.change(screen.getByTestId('domain-input'), { target: { value } });
}

const submit = () => screen.getByTestId<HTMLButtonElement>('domain-submit');

/** Opens the modal on an unverified project, types `domain` and continues to the records. */
async function openInstructions(domain: string) {
  api(unverified);
  renderRoutes(routes, '/project/7');
  await openConfigure();
  type(domain);
  fireEvent.click(submit());
  return screen.findByTestId('domain-instructions');
}

beforeEach(() => {
  vi.mocked(reloadPage).mockClear();
});

describe('configure domain modal', () => {
  it("keeps submit disabled while the domain is invalid, and says 'invalid domain'", async () => {
    const { calls } = api(unverified);
    renderRoutes(routes, '/project/7');
    await openConfigure();

    expect(submit().disabled).toBe(true);
    expect(screen.queryByText('domínio inválido')).toBeNull();

    for (const bad of ['loja', 'loja .com', 'http://loja', '-loja.com', 'loja.123']) {
      type(bad);
      expect(submit().disabled, bad).toBe(true);
      expect(screen.getByRole('alert').textContent, bad).toBe('domínio inválido');
    }
    fireEvent.submit(screen.getByTestId('domain-input').closest('form') as HTMLFormElement);
    expect(screen.queryByTestId('domain-instructions')).toBeNull();

    type('Shop.Example.com');
    expect(submit().disabled).toBe(false);
    expect(screen.queryByText('domínio inválido')).toBeNull();
    expect(posts(calls)).toEqual([]);
  });

  it('after submit shows the TXT proof with the project token, the A record address and the CNAME target, and the CDN proxy note', async () => {
    const { calls } = api(unverified);
    renderRoutes(routes, '/project/7');
    await openConfigure();
    type(' Shop.Example ');
    expect(screen.getByTestId('domain-cleaned').textContent).toBe('Será salvo como shop.example.');
    fireEvent.click(submit());

    const instructions = await screen.findByTestId('domain-instructions');
    expect(instructions.textContent).toContain('Para usar shop.example');
    expect(within(instructions).getByTestId('domain-txt-name').textContent).toBe(
      '_vitrine-challenge.shop.example',
    );
    expect(within(instructions).getByTestId('domain-txt-value').textContent).toBe('vitrine-verify=uuid');
    expect(within(instructions).getByTestId('domain-record-txt').textContent).toContain('TXT');
    expect(screen.getByTestId('domain-txt-note').textContent).toContain('Só o dono do domínio');
    expect(within(instructions).getByTestId('domain-public-ip').textContent).toBe('203.0.113.7');
    expect(within(instructions).getByTestId('domain-cname-target').textContent).toBe('sites.vitrine.example');
    expect(instructions.textContent).toContain('um registro A apontando para 203.0.113.7');
    expect(instructions.textContent).toContain('ou um registro CNAME apontando para sites.vitrine.example');
    expect(screen.getByTestId('domain-proxy-note').textContent).toContain('proxy de CDN');
    expect(screen.getByTestId('domain-proxy-note').textContent).toContain('deve ficar desligado');
    // Continue saved it as pending (nothing verified yet): the server checks it by itself, and
    // the modal says when.
    expect(calls.filter((call) => call.method === 'POST')).toEqual([
      { method: 'POST', url: '/api/projects/7', body: { domain: 'shop.example' } },
    ]);
    const note = await screen.findByTestId('domain-pending-note');
    expect(note.textContent).toContain('shop.example foi salvo como pendente');
    expect(within(note).getByTestId('domain-next-check').textContent).toMatch(
      /^Próxima verificação em \d{2}\/\d{2}\/2025 \d{2}:\d{2}$/,
    );
  });

  it('cleans a pasted address to its host, says so, and saves that host as pending', async () => {
    const { calls } = api(unverified);
    renderRoutes(routes, '/project/7');
    await openConfigure();
    const input = screen.getByTestId<HTMLInputElement>('domain-input');
    fireEvent.paste(input, { clipboardData: { getData: () => ' https://WWW.X.com.br/loja?x=1 ' } });
    await waitFor(() => expect(input.value).toBe('www.x.com.br'));
    // Typed with a scheme and a slash: the note says what will be saved, leaving the field cleans it.
    type('HTTPS://www.x.com.br/');
    expect(screen.getByTestId('domain-cleaned').textContent).toBe('Será salvo como www.x.com.br.');
    expect(submit().disabled).toBe(false);
    fireEvent.blur(input);
    await waitFor(() => expect(input.value).toBe('www.x.com.br'));
    expect(screen.queryByTestId('domain-cleaned')).toBeNull();
    fireEvent.click(submit());
    await screen.findByTestId('domain-instructions');
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ domain: 'www.x.com.br' });
    await waitFor(() => expect(screen.getByTestId('domain-verified').textContent).toBe('Aguardando DNS'));
    expect(screen.getByTestId('domain-pending-live').textContent).toBe(
      'O site já está no ar em http://loja-da-ana.localhost:8080. www.x.com.br aguarda o DNS.',
    );
  });

  it('Change goes back to the input, keeping what was typed', async () => {
    await openInstructions('shop.example');

    fireEvent.click(screen.getByTestId('domain-change'));
    expect(screen.queryByTestId('domain-instructions')).toBeNull();
    expect(screen.getByTestId<HTMLInputElement>('domain-input').value).toBe('shop.example');
    expect(submit().disabled).toBe(false);
  });

  it('verifies: posts the domain, shows where it points in Portuguese and then the domain as verified', async () => {
    const server = api(unverified, {
      [VERIFY]: () => {
        server.setProject({
          domain: 'shop.example',
          meta: { verified: true, verifiedDomain: 'shop.example', verifiedTimestamp: '2025-03-02T10:00:00Z' },
          certificate: null,
        });
        return {
          status: 200,
          json: {
            code: 'dns_verified_address',
            message: 'Domain verified: shop.example points to 203.0.113.7',
            params: { domain: 'shop.example', ip: '203.0.113.7' },
          },
        };
      },
    });
    renderRoutes(routes, '/project/7');
    await openConfigure();
    type('Shop.Example');
    fireEvent.click(submit());
    fireEvent.click(await screen.findByTestId('domain-verify'));

    const success = await screen.findByTestId('domain-verify-success');
    expect(success.textContent).toBe('Domínio verificado: shop.example aponta para 203.0.113.7');
    expect(server.calls.find((call) => call.url === '/api/dns-verify')).toEqual({
      method: 'POST',
      url: '/api/dns-verify',
      body: { project_id: 7, domain: 'shop.example' },
    });
    // The client only asks: the server saved the domain and the flags, the page refetches them.
    expect(posts(server.calls)).toEqual(['/api/projects/7', '/api/dns-verify']);
    await waitFor(() => expect(screen.getByTestId('project-domain').textContent).toBe('shop.example'));
    expect(screen.getByTestId('domain-verified').textContent).toBe('Verificado');

    fireEvent.click(screen.getByTestId('domain-done'));
    expect(screen.queryByTestId('configure-domain-modal')).toBeNull();
  });

  it('copies each record to the clipboard', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await openInstructions('shop.example');
    for (const id of [
      'domain-copy-txt-name',
      'domain-copy-txt-value',
      'domain-copy-a-value',
      'domain-copy-cname-value',
    ]) {
      fireEvent.click(screen.getByTestId(id));
    }
    expect(writeText.mock.calls).toEqual([
      ['_vitrine-challenge.shop.example'],
      ['vitrine-verify=uuid'],
      ['203.0.113.7'],
      ['sites.vitrine.example'],
    ]);
    expect(screen.getByLabelText('Copiar o valor do registro TXT')).toBe(
      screen.getByTestId('domain-copy-txt-value'),
    );
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
  });

  it('shows what the check found and what to set, in Portuguese, when it fails, then the domain as pending, and can go back to change it', async () => {
    const report: { error: string; message: string; params: Record<string, string>; details: DnsFinding[] } =
      {
        error: 'dns_not_ready',
        message:
          '_vitrine-challenge.shop.example has no TXT record yet. shop.example points to 203.0.113.7. …',
        params: { domain: 'shop.example' },
        details: [
          {
            code: 'dns_txt_missing',
            message: '_vitrine-challenge.shop.example has no TXT record yet.',
            params: { record: '_vitrine-challenge.shop.example' },
          },
          {
            code: 'dns_points_address',
            message: 'shop.example points to 203.0.113.7.',
            params: { domain: 'shop.example', ip: '203.0.113.7' },
          },
          {
            code: 'dns_set_txt',
            message: 'Set a TXT record _vitrine-challenge.shop.example with the value vitrine-verify=uuid.',
            params: { record: '_vitrine-challenge.shop.example', token: 'vitrine-verify=uuid' },
          },
          { code: 'dns_proxy_off', message: 'If a CDN proxy is used it must be off.' },
          {
            code: 'dns_pending',
            message: 'shop.example is saved as pending: …',
            params: { domain: 'shop.example' },
          },
        ],
      };
    const server = api(unverified, {
      [VERIFY]: () => {
        server.setProject({
          domain: 'shop.example',
          meta: {},
          certificate: null,
          domain_check: {
            domain: 'shop.example',
            checks: 1,
            last_result: {
              code: report.error,
              message: report.message,
              params: report.params,
              details: report.details,
            },
            checked_at: '2025-03-02T10:00:00Z',
            next_check_at: '2025-03-02T10:01:00Z',
            created_at: '2025-03-02T10:00:00Z',
          },
        });
        return { status: 422, json: report };
      },
    });
    const { calls } = server;
    renderRoutes(routes, '/project/7');
    await openConfigure();
    type('shop.example');
    fireEvent.click(submit());
    fireEvent.click(await screen.findByTestId('domain-verify'));

    const failure = await screen.findByTestId('domain-verify-failure');
    expect(failure.getAttribute('role')).toBe('alert');
    expect(within(failure).getByTestId('domain-verify-message').textContent).toBe(
      'O DNS de shop.example ainda não está pronto.',
    );
    const findings = within(failure)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(findings).toEqual([
      '_vitrine-challenge.shop.example ainda não tem registro TXT.',
      'shop.example aponta para 203.0.113.7.',
      'Crie um registro TXT _vitrine-challenge.shop.example com o valor vitrine-verify=uuid.',
      'Se você usa um proxy de CDN, ele precisa estar desligado.',
    ]);
    // Only the pending note says it waits; no English leaks into the Portuguese modal.
    expect(failure.textContent).not.toMatch(/has no|points to|Set a/);
    expect(screen.queryByTestId('domain-verify-success')).toBeNull();
    // The server saved it as pending: the modal and the overview say so.
    const note = await screen.findByTestId('domain-pending-note');
    expect(note.textContent).toContain('shop.example foi salvo como pendente');
    expect(within(note).getByTestId('domain-next-check').textContent).toMatch(
      /^Próxima verificação em \d{2}\/\d{2}\/2025 \d{2}:\d{2}$/,
    );
    await waitFor(() => expect(screen.getByTestId('project-domain').textContent).toBe('shop.example'));
    const badge = screen.getByTestId('domain-verified');
    expect(badge.textContent).toBe('Aguardando DNS');
    expect(badge.getAttribute('data-pending')).toBe('true');
    expect(posts(calls)).toEqual(['/api/projects/7', '/api/dns-verify']);

    // Verify again is offered, and so is Change; the failure goes once the domain changes.
    expect(screen.getByTestId('domain-verify')).toBeTruthy();
    fireEvent.click(screen.getByTestId('domain-change'));
    expect(screen.queryByTestId('domain-verify-failure')).toBeNull();
    expect(screen.getByTestId<HTMLInputElement>('domain-input').value).toBe('shop.example');
  });

  it("shows what the server's own last check of a pending domain found, in Portuguese", async () => {
    api({
      domain: 'shop.example',
      meta: {},
      domain_check: {
        domain: 'shop.example',
        checks: 3,
        last_result: {
          code: 'dns_not_ready',
          message: 'English text',
          params: { domain: 'shop.example' },
          details: [
            {
              code: 'dns_points_elsewhere',
              message: 'shop.example does not point to 203.0.113.7 (found: 198.51.100.9).',
              params: { domain: 'shop.example', address: '203.0.113.7', found: '198.51.100.9' },
            },
            { code: 'dns_pending', message: 'saved as pending', params: { domain: 'shop.example' } },
          ],
        },
        checked_at: '2025-03-02T10:00:00Z',
        next_check_at: '2025-03-02T10:08:00Z',
        created_at: '2025-03-02T09:00:00Z',
      },
    });
    renderRoutes(routes, '/project/7');
    await openConfigure();
    fireEvent.click(submit());
    const last = await screen.findByTestId('domain-last-check');
    expect(last.textContent).toMatch(
      /^Última verificação \(\d{2}\/\d{2}\/2025 \d{2}:\d{2}\): O DNS de shop\.example ainda não está pronto\./,
    );
    expect(
      within(last)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['shop.example não aponta para 203.0.113.7 (encontrado: 198.51.100.9).']);
  });

  it('says a domain another project holds is in use when it is entered, staying on the input', async () => {
    api(unverified, {
      [SAVE]: () => ({
        status: 409,
        json: { error: 'domain_in_use', message: 'domain already in use', field: 'domain' },
      }),
    });
    renderRoutes(routes, '/project/7');
    await openConfigure();
    type('www.shop.example');
    fireEvent.click(submit());
    // The code in the interface's language.
    expect((await screen.findByTestId('domain-save-error')).textContent).toBe('domínio já está em uso');
    expect(screen.queryByTestId('domain-instructions')).toBeNull();
    expect(screen.queryByTestId('domain-pending-note')).toBeNull();
  });

  it('shows what the server said in a JSON error body too', async () => {
    api(unverified, {
      [VERIFY]: () => ({ status: 409, json: { error: 'not_yet_known', message: 'domain already in use' } }),
    });
    renderRoutes(routes, '/project/7');
    await openConfigure();
    type('shop.example');
    fireEvent.click(submit());
    fireEvent.click(await screen.findByTestId('domain-verify'));
    expect((await screen.findByTestId('domain-verify-message')).textContent).toBe('domain already in use');
  });

  it('says it is verifying, and blocks Verify and Change, until the server answers', async () => {
    let answer: (response: Response) => void = () => undefined;
    api(unverified, { [VERIFY]: () => new Promise<Response>((done) => (answer = done)) });
    renderRoutes(routes, '/project/7');
    await openConfigure();
    type('shop.example');
    fireEvent.click(submit());
    fireEvent.click(await screen.findByTestId('domain-verify'));

    await waitFor(() => expect(screen.getByTestId('domain-verify').textContent).toBe('Verificando…'));
    expect(screen.getByTestId<HTMLButtonElement>('domain-verify').disabled).toBe(true);
    expect(screen.getByTestId<HTMLButtonElement>('domain-change').disabled).toBe(true);
    answer(new Response('shop.example has no A or CNAME record', { status: 422 }));
    expect((await screen.findByTestId('domain-verify-message')).textContent).toBe(
      'shop.example has no A or CNAME record',
    );
    expect(screen.getByTestId('domain-verify').textContent).toBe('Verificar');
  });

  it('shows what the browser said when no answer came', async () => {
    api(unverified, {
      [VERIFY]: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    renderRoutes(routes, '/project/7');
    await openConfigure();
    type('shop.example');
    fireEvent.click(submit());
    fireEvent.click(await screen.findByTestId('domain-verify'));
    const message = await screen.findByTestId('domain-verify-message');
    expect(JSON.parse(message.textContent ?? '')).toEqual({ error: 'TypeError', message: 'Failed to fetch' });
  });

  it('starts from the current domain when there is one', async () => {
    api({ domain: 'loja.example.com', meta: {} });
    renderRoutes(routes, '/project/7');
    await openConfigure();
    expect(screen.getByTestId<HTMLInputElement>('domain-input').value).toBe('loja.example.com');
    expect(submit().disabled).toBe(false);
  });
});

describe('remove domain modal', () => {
  it('confirms, posts the removal and reloads the page', async () => {
    const { calls } = api(
      { domain: 'loja.example.com', meta: verifiedMeta },
      {
        [REMOVE]: () => ({ json: projectFixture(7, { domain: null, meta: {} }) }),
      },
    );
    renderRoutes(routes, '/project/7');
    fireEvent.click(await screen.findByTestId('remove-domain'));
    const dialog = screen.getByRole('dialog', { name: 'Remover domínio' });
    expect(dialog.textContent).toContain('Remover o domínio loja.example.com do projeto "Loja da Ana"?');
    expect(posts(calls)).toEqual([]);

    fireEvent.click(screen.getByTestId('remove-domain-confirm'));
    await waitFor(() => expect(reloadPage).toHaveBeenCalledTimes(1));
    expect(posts(calls)).toEqual(['/api/remove-domain/7']);
    expect(screen.queryByTestId('response-box')).toBeNull();
  });

  it('shows the serialized response in the Response box when the removal fails, and does not reload', async () => {
    api(
      { domain: 'loja.example.com', meta: verifiedMeta },
      {
        [REMOVE]: () => ({ status: 500, json: { error: 'internal', message: 'internal server error' } }),
      },
    );
    renderRoutes(routes, '/project/7');
    fireEvent.click(await screen.findByTestId('remove-domain'));
    fireEvent.click(screen.getByTestId('remove-domain-confirm'));

    const box = await screen.findByTestId('response-box');
    expect(box.textContent).toContain('O domínio não pôde ser removido.');
    expect(within(box).getByText('Resposta')).toBeTruthy();
    expect(JSON.parse(screen.getByTestId('response-body').textContent ?? '')).toEqual({
      status: 500,
      error: 'internal',
      message: 'internal server error',
    });
    expect(reloadPage).not.toHaveBeenCalled();
    expect(screen.getByTestId('remove-domain-retry')).toBeTruthy();
    expect(screen.getByTestId('project-domain').textContent).toBe('loja.example.com');
  });

  it('is not offered without a domain', async () => {
    api(unverified);
    renderRoutes(routes, '/project/7');
    await screen.findByTestId('configure-domain');
    expect(screen.queryByTestId('remove-domain')).toBeNull();
    expect(screen.queryByTestId('certificate-status')).toBeNull();
    expect(screen.queryByTestId('domain-verified')).toBeNull();
  });
});

describe('domain status on the overview', () => {
  const certificate = (overrides: Partial<Certificate>): Certificate => ({
    domain: 'loja.example.com',
    status: 'pending',
    expires_at: null,
    last_error: null,
    failures: 0,
    next_attempt_at: null,
    ...overrides,
  });

  it.each([
    ['none', null, 'Sem certificado'],
    [
      'pending',
      certificate({ status: 'pending', next_attempt_at: '2025-03-01T12:05:00Z' }),
      'Certificado pendente',
    ],
    [
      'issued',
      certificate({ status: 'issued', expires_at: '2025-05-30T12:00:00Z' }),
      'Certificado válido até 30/05/2025',
    ],
    [
      'failing',
      certificate({
        status: 'failing',
        failures: 3,
        last_error: 'urn:ietf:params:acme:error:connection: timeout during connect',
        next_attempt_at: '2025-03-01T14:00:00Z',
      }),
      'Falha no certificado',
    ],
  ] as const)('shows the certificate %s', async (status, cert, label) => {
    api({ domain: 'loja.example.com', meta: verifiedMeta, certificate: cert });
    renderRoutes(routes, '/project/7');
    const shown = await screen.findByTestId('certificate-status');
    expect(shown.getAttribute('data-status')).toBe(status);
    expect(within(shown).getByTestId('certificate-badge').textContent).toBe(label);
    const error = within(shown).queryByTestId('certificate-error');
    if (status === 'failing') {
      expect(error?.textContent).toBe('urn:ietf:params:acme:error:connection: timeout during connect');
    } else {
      expect(error).toBeNull();
    }
    const next = within(shown).queryByTestId('certificate-next-attempt');
    if (status === 'pending' || status === 'failing') {
      expect(next?.textContent).toMatch(/^Nova tentativa em \d{2}\/\d{2}\/2025 \d{2}:\d{2}$/);
    } else {
      expect(next).toBeNull();
    }
  });

  it('shows a domain verified when the flags name it', async () => {
    api({ domain: 'loja.example.com', meta: verifiedMeta });
    renderRoutes(routes, '/project/7');
    const badge = await screen.findByTestId('domain-verified');
    expect(badge.textContent).toBe('Verificado');
    expect(badge.getAttribute('data-verified')).toBe('true');
  });

  it.each([
    ['never verified', {}],
    ['verified under another name', { ...verifiedMeta, verifiedDomain: 'old.example.com' }],
  ])('shows the domain unverified when %s', async (_, meta) => {
    api({ domain: 'loja.example.com', meta });
    renderRoutes(routes, '/project/7');
    const badge = await screen.findByTestId('domain-verified');
    expect(badge.textContent).toBe('Não verificado');
    expect(badge.getAttribute('data-verified')).toBe('false');
    expect(screen.queryByTestId('hsts-toggle')).toBeNull();
  });
});

describe('HSTS', () => {
  it('is offered once the domain is verified, off by default, and saves meta.hsts', async () => {
    const server = api(
      { domain: 'loja.example.com', meta: verifiedMeta },
      {
        'POST /api/projects/7': (call) => {
          const meta = { ...verifiedMeta, ...(call.body as { meta: object }).meta };
          server.setProject({ domain: 'loja.example.com', meta });
          return { json: projectFixture(7, { domain: 'loja.example.com', meta }) };
        },
      },
    );
    renderRoutes(routes, '/project/7');
    const toggle = await screen.findByTestId<HTMLInputElement>('hsts-toggle');
    expect(toggle.checked).toBe(false);
    expect(screen.getByLabelText('Forçar HTTPS (HSTS)')).toBe(toggle);
    expect(screen.getByTestId('hsts-help').textContent).toContain('só por HTTPS');

    fireEvent.click(toggle);
    await waitFor(() => expect(server.calls.some((call) => call.method === 'POST')).toBe(true));
    expect(server.calls.find((call) => call.method === 'POST')).toEqual({
      method: 'POST',
      url: '/api/projects/7',
      body: { meta: { hsts: true } },
    });
    await waitFor(() => expect(screen.getByTestId<HTMLInputElement>('hsts-toggle').disabled).toBe(false));
    expect(screen.getByTestId<HTMLInputElement>('hsts-toggle').checked).toBe(true);
  });
});
