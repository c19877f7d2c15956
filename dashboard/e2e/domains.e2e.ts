/**
 * Custom domains end to end, against the real control plane: the Configure domain modal keeps an
 * invalid domain from being submitted, shows the DNS records to create (the TXT proof with the
 * project's own token, and the server's own address and CNAME target), and a Verify against a
 * domain that cannot resolve (RFC 6761 `.invalid`; the suite's control plane uses the system
 * resolver) shows the server's reason verbatim and leaves the domain pending, unverified, which
 * the modal and the overview say. Remove domain posts the removal and reloads the page; when the
 * server refuses (the project was deleted meanwhile) the Response box shows its answer.
 *
 * Needs a control plane that serves POST /api/dns-verify and POST /api/remove-domain/{id}, and
 * that lets the owner save a domain as pending through POST /api/projects/{id} (the removal
 * test starts from a domain saved that way).
 */
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseURL, byTestId, createProjectViaApi, useBrowser } from './support';

const session = useBrowser();
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  context = await session.registered('domains');
  page = await context.newPage();
});

interface ProjectState {
  domain: string | null;
  domain_token: string;
  domain_check: { domain: string; checks: number } | null;
  meta: { verified?: boolean };
}

async function projectState(id: number): Promise<ProjectState> {
  const response = await context.request.get(`${baseURL}/api/projects/${id}`);
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as ProjectState;
}

async function openOverview(id: number): Promise<void> {
  await page.goto(`/project/${id}`);
  await page.waitForSelector(byTestId('project-overview'));
}

async function openConfigure(): Promise<void> {
  await page.click(byTestId('configure-domain'));
  await page.waitForSelector(`${byTestId('configure-domain-modal')}[role="dialog"]`);
}

const submitDisabled = () =>
  page.$eval(byTestId('domain-submit'), (button) => (button as HTMLButtonElement).disabled);

describe('domains', () => {
  it("blocks an invalid domain ('invalid domain'), then shows the TXT proof, the server's DNS address and CNAME target", async () => {
    const id = await createProjectViaApi(context, 'Domain input');
    const config = (await (await context.request.get(`${baseURL}/api/config`)).json()) as {
      public_ip: string;
      cname_target: string;
    };
    await openOverview(id);
    await openConfigure();

    expect(await submitDisabled()).toBe(true);
    await page.fill(byTestId('domain-input'), 'not a domain');
    await page.waitForSelector('.field-error:text-is("domínio inválido")');
    expect(await submitDisabled()).toBe(true);
    await page.press(byTestId('domain-input'), 'Enter');
    expect(await page.$(byTestId('domain-instructions'))).toBeNull();

    await page.fill(byTestId('domain-input'), 'shop.example.com');
    expect(await page.$('.field-error')).toBeNull();
    expect(await submitDisabled()).toBe(false);
    await page.click(byTestId('domain-submit'));

    await page.waitForSelector(byTestId('domain-instructions'));
    const { domain_token: token } = await projectState(id);
    expect(token).toMatch(/^vitrine-verify=/);
    expect(await page.textContent(byTestId('domain-txt-name'))).toBe('_vitrine-challenge.shop.example.com');
    expect(await page.textContent(byTestId('domain-txt-value'))).toBe(token);
    expect(await page.$(byTestId('domain-copy-txt-value'))).not.toBeNull();
    expect(await page.textContent(byTestId('domain-public-ip'))).toBe(config.public_ip);
    expect(await page.textContent(byTestId('domain-cname-target'))).toBe(config.cname_target);
    expect(await page.textContent(byTestId('domain-proxy-note'))).toContain('proxy de CDN');

    await page.click(byTestId('domain-change'));
    expect(await page.inputValue(byTestId('domain-input'))).toBe('shop.example.com');
  });

  it('shows what the DNS check found in Portuguese when it fails, and keeps the domain pending, unverified', async () => {
    const id = await createProjectViaApi(context, 'Domain verify');
    await openOverview(id);
    await openConfigure();
    await page.fill(byTestId('domain-input'), 'vitrine-e2e.invalid');
    await page.click(byTestId('domain-submit'));
    await page.waitForSelector(byTestId('domain-instructions'));

    const answer = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/dns-verify',
      { timeout: 45_000 },
    );
    await page.click(byTestId('domain-verify'));
    const response = await answer;
    const text = await response.text();
    expect(response.status(), text).toBeGreaterThanOrEqual(400);
    expect(response.status(), 'a missing route is not a DNS failure').not.toBe(404);
    expect(response.status()).not.toBe(405);

    // The dashboard asks for JSON: the findings come as codes, shown in the interface's language.
    const report = JSON.parse(text) as { error: string; details: { code: string }[] };
    expect(report.error).toBe('dns_not_ready');
    await page.waitForSelector(byTestId('domain-verify-failure'));
    expect(await page.textContent(byTestId('domain-verify-message'))).toBe(
      'O DNS de vitrine-e2e.invalid ainda não está pronto.',
    );
    expect(await page.$(byTestId('domain-verify-success'))).toBeNull();
    const findings = await page.$$eval(`${byTestId('domain-verify-findings')} li`, (items) =>
      items.map((item) => item.textContent ?? ''),
    );
    expect(findings).toContain('_vitrine-challenge.vitrine-e2e.invalid ainda não tem registro TXT.');
    expect(findings.join(' ')).not.toMatch(/has no|Set a|points to/);

    // Saved as pending: the server checks it again on its own, and the page says so.
    await page.waitForSelector(byTestId('domain-pending-note'));
    const project = await projectState(id);
    expect(project.domain).toBe('vitrine-e2e.invalid');
    expect(project.domain_check?.domain).toBe('vitrine-e2e.invalid');
    expect(project.meta.verified ?? false).toBe(false);
    await page.click(`${byTestId('configure-domain-modal')} button[aria-label="Fechar"]`);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="domain-verified"]')?.textContent === 'Aguardando DNS',
    );
  });

  it('removes the domain and reloads the page', async () => {
    const id = await createProjectViaApi(context, 'Domain removal');
    const set = await context.request.post(`${baseURL}/api/projects/${id}`, {
      data: { domain: 'removal.example.com' },
    });
    expect(set.ok(), await set.text()).toBe(true);
    await openOverview(id);
    expect(await page.textContent(byTestId('project-domain'))).toBe('removal.example.com');
    expect(await page.textContent(byTestId('domain-verified'))).toBe('Aguardando DNS');
    expect(await page.getAttribute(byTestId('certificate-status'), 'data-status')).toBe('none');

    // Survives only until the page reloads.
    await page.evaluate(() => Object.assign(window, { beforeRemoval: true }));
    await page.click(byTestId('remove-domain'));
    await page.waitForSelector(`${byTestId('remove-domain-modal')}[role="dialog"]`);
    await page.click(byTestId('remove-domain-confirm'));
    // Either the reload, or the Response box saying why not.
    await page.waitForFunction(
      () => !('beforeRemoval' in window) || document.querySelector('[data-testid="response-box"]'),
    );
    const refused = await page.$(byTestId('response-box'));
    expect(refused ? await refused.textContent() : null).toBeNull();
    // The "no domain" text sits in an inner element, so compare the whole text, not :text-is.
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="project-domain"]')?.textContent ===
        'Nenhum domínio configurado',
    );
    expect(await page.$(byTestId('remove-domain'))).toBeNull();
    expect((await projectState(id)).domain).toBeNull();
  });

  it('shows the serialized response in the Response box when the removal fails', async () => {
    // The API's 404 for a route it lacks looks like a missing project's: first make sure the route is there.
    const other = await createProjectViaApi(context, 'Domain removal probe');
    await context.request.post(`${baseURL}/api/projects/${other}`, { data: { domain: 'probe.example.com' } });
    const probe = await context.request.post(`${baseURL}/api/remove-domain/${other}`);
    expect(probe.ok(), `POST /api/remove-domain/{id}: ${probe.status()} ${await probe.text()}`).toBe(true);

    const id = await createProjectViaApi(context, 'Domain removal failure');
    const set = await context.request.post(`${baseURL}/api/projects/${id}`, {
      data: { domain: 'gone.example.com' },
    });
    expect(set.ok(), await set.text()).toBe(true);
    await openOverview(id);
    await page.click(byTestId('remove-domain'));
    await page.waitForSelector(`${byTestId('remove-domain-modal')}[role="dialog"]`);

    // The project goes away between opening the modal and confirming.
    const deleted = await context.request.delete(`${baseURL}/api/projects/${id}`);
    expect(deleted.ok(), await deleted.text()).toBe(true);
    await page.click(byTestId('remove-domain-confirm'));

    await page.waitForSelector(byTestId('response-box'));
    const body = JSON.parse((await page.textContent(byTestId('response-body'))) ?? '') as {
      status?: number;
      error?: string;
    };
    expect([403, 404]).toContain(body.status);
    expect(['not_found', 'forbidden']).toContain(body.error);
    expect(await page.textContent(byTestId('project-domain'))).toBe('gone.example.com');
  });
});
