// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { paths } from '@/app/paths';
import { applyLanguage } from '@/lib/i18n';
import type { User } from '@/lib/types';
import { expectFieldError, expectFocused } from '@/testing/forms';
import { mockApi, renderRoutes, type ApiCall, type Handler } from '@/testing/render-route';
import { reloadPage } from '@/features/account/lib/reload-page';
import { loadStripe, type StripeSetupResult } from '@/features/account/lib/stripe';
import type { MonthTransactions, StorageUsage, Transaction } from '@/features/account/types';
import type { Plan } from '@/lib/plans';
import { AccountScreen } from './AccountScreen';
import { ConfirmEmailRoute } from '@/features/account/routes/ConfirmEmailRoute';

vi.mock('@/features/account/lib/reload-page', () => ({ reloadPage: vi.fn() }));
vi.mock('@/features/account/lib/stripe', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/features/account/lib/stripe')>()),
  loadStripe: vi.fn(),
}));

/** "Today" for the month navigator: 15 March 2026. */
const today = new Date(2026, 2, 15, 10, 0);
const routes = [{ path: paths.user.pattern, element: <AccountScreen now={today} /> }];

const user = (overrides: Partial<User> = {}): User => ({
  id: 1,
  name: 'Ana',
  email: 'ana@example.com',
  language: 'pt-BR',
  currency: 'BRL',
  business_id: null,
  is_admin: false,
  is_business_admin: false,
  permissions: { all_projects: true },
  created_at: '2025-01-01T00:00:00Z',
  plan: 'agency',
  has_card: true,
  ...overrides,
});

/** Spec 2 §9, in minor units. */
const plans = (): Plan[] => [
  { plan: 'basic', currency: 'BRL', name: 'Básico', monthly_fee: 0, per_site: 3000, support: ['email'] },
  {
    plan: 'agency',
    currency: 'BRL',
    name: 'Agência',
    monthly_fee: 37000,
    per_site: 2000,
    support: ['email', 'chat', 'whatsapp'],
  },
  { plan: 'basic', currency: 'USD', name: 'Starter', monthly_fee: 0, per_site: 700, support: ['email'] },
  {
    plan: 'agency',
    currency: 'USD',
    name: 'Agency',
    monthly_fee: 7000,
    per_site: 500,
    support: ['email', 'chat'],
  },
];

const storage = (overrides: Partial<StorageUsage> = {}): StorageUsage => ({
  bytes: 1_500_000,
  max_bytes: 1_073_741_824,
  files: 12,
  max_files: 10_000,
  records: 2_500,
  max_records: 100_000,
  uploads_per_minute: 60,
  business: false,
  ...overrides,
});

const month = (key: string, days: MonthTransactions['days'] = []): MonthTransactions => ({
  month: key,
  currency: 'BRL',
  total: days.reduce((sum, day) => sum + day.total, 0),
  days,
});

/** Empty history for a year of months before today. */
function emptyMonths(): Record<string, Handler> {
  const handlers: Record<string, Handler> = {};
  for (const key of ['2025-10', '2025-11', '2025-12', '2026-01', '2026-02', '2026-03']) {
    handlers[`GET /api/transactions/${key}`] = () => ({ json: month(key) });
  }
  return handlers;
}

function api(handlers: Record<string, Handler> = {}, account: User = user()) {
  return mockApi({
    'GET /api/user': () => ({ json: account }),
    'GET /api/plans': () => ({ json: plans() }),
    'GET /api/transactions/balance': () => ({ json: { amount: -1500, currency: account.currency } }),
    'GET /api/stripe-config': () => ({ status: 503, json: { error: 'Card payments are not configured' } }),
    'GET /api/user/storage': () => ({ json: storage() }),
    ...emptyMonths(),
    ...handlers,
  });
}

const gets = (calls: ApiCall[], url: string) => calls.filter((c) => c.method === 'GET' && c.url === url);
const posts = (calls: ApiCall[], url: string) => calls.filter((c) => c.method === 'POST' && c.url === url);
const text = (testId: string) => screen.getByTestId(testId).textContent;

async function open() {
  renderRoutes(routes, '/user');
  return screen.findByTestId('account-screen');
}

beforeEach(() => {
  localStorage.clear();
  vi.mocked(reloadPage).mockClear();
  vi.mocked(loadStripe).mockReset();
});

afterEach(() => {
  applyLanguage('pt-BR');
  localStorage.clear();
});

describe('account screen', () => {
  it('shows the account fields, the plan, the card on file and the balance in BRL', async () => {
    api();
    await open();
    expect(screen.getByTestId<HTMLInputElement>('account-name').value).toBe('Ana');
    expect(screen.getByTestId<HTMLInputElement>('account-email').value).toBe('ana@example.com');
    expect(screen.getByTestId<HTMLSelectElement>('account-language').value).toBe('pt-BR');
    expect(screen.getByTestId<HTMLSelectElement>('account-currency').value).toBe('BRL');
    await waitFor(() => expect(text('account-plan')).toBe('Agência'));
    expect(text('account-card')).toBe('Cartão cadastrado');
    expect(await screen.findByTestId('account-balance')).toHaveProperty('textContent', '-R$ 15,00 (a pagar)');
  });

  it("shows the account's storage against its quotas, as the server counts it, in either language", async () => {
    const calls = api({
      'GET /api/user/storage': () => ({
        json: storage({ business: true, bytes: 990_000_000, max_bytes: 1_000_000_000 }),
      }),
    });
    await open();
    await waitFor(() =>
      expect(text('account-storage-files')).toBe('990 MB de 1 GB em 12 de 10.000 arquivos'),
    );
    expect(text('account-storage-records')).toBe('2.500 de 100.000 registros');
    expect(screen.getByTestId('account-storage-meter')).toHaveProperty('value', 990_000_000);
    expect(screen.getByText('Compartilhado por todos os membros da sua empresa.')).toBeTruthy();
    expect(gets(calls, '/api/user/storage')).toHaveLength(1);
    applyLanguage('en');
    await waitFor(() => expect(text('account-storage-files')).toBe('990 MB of 1 GB in 12 of 10,000 files'));
    expect(text('account-storage-records')).toBe('2,500 of 100,000 records');
  });

  it('says why the storage use is missing when the server refuses it', async () => {
    api({
      'GET /api/user/storage': () => ({ status: 404, json: { error: 'not_found', message: 'Not found' } }),
    });
    await open();
    expect(await screen.findByTestId('storage-error')).toBeTruthy();
  });

  it('shows the plan and the balance in USD, and no card', async () => {
    api(
      { 'GET /api/transactions/balance': () => ({ json: { amount: 1250, currency: 'USD' } }) },
      user({ currency: 'USD', plan: 'basic', has_card: false }),
    );
    await open();
    expect(screen.getByTestId<HTMLSelectElement>('account-currency').value).toBe('USD');
    await waitFor(() => expect(text('account-plan')).toBe('Starter'));
    expect(text('account-card')).toBe('Nenhum cartão');
    expect(await screen.findByTestId('account-balance')).toHaveProperty('textContent', 'US$ 12,50');
  });

  it('saves language and currency, then switches the interface language', async () => {
    const calls = api({
      'POST /api/user': ({ body }) => ({ json: { ...user(), ...(body as object) } }),
    });
    await open();
    fireEvent.change(screen.getByTestId('account-language'), { target: { value: 'en' } });
    fireEvent.change(screen.getByTestId('account-currency'), { target: { value: 'USD' } });
    fireEvent.click(screen.getByTestId('account-save'));
    await waitFor(() => expect(posts(calls, '/api/user')).toHaveLength(1));
    expect(posts(calls, '/api/user')[0]?.body).toEqual({ name: 'Ana', language: 'en', currency: 'USD' });
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('My account'));
    expect(document.documentElement.lang).toBe('en');
    // The balance and the history are in the account's currency: asked for again.
    await waitFor(() => expect(gets(calls, '/api/transactions/balance')).toHaveLength(2));
  });

  it('shows a refused save (422) verbatim', async () => {
    const calls = api({ 'POST /api/user': () => ({ status: 422, json: { error: 'Moeda não suportada' } }) });
    await open();
    fireEvent.change(screen.getByTestId('account-currency'), { target: { value: 'USD' } });
    fireEvent.click(screen.getByTestId('account-save'));
    expect((await screen.findByTestId('account-form-error')).textContent).toBe('Moeda não suportada');
    expect(posts(calls, '/api/user')[0]?.body).toEqual({ name: 'Ana', language: 'pt-BR', currency: 'USD' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Minha conta');
  });

  it('asks for a name before saving', async () => {
    const calls = api();
    await open();
    fireEvent.change(screen.getByTestId('account-name'), { target: { value: '  ' } });
    fireEvent.click(screen.getByTestId('account-save'));
    await expectFieldError('account-name', 'Informe o nome');
    await expectFocused('account-name');
    fireEvent.change(screen.getByTestId('account-name'), { target: { value: 'é'.repeat(201) } });
    fireEvent.click(screen.getByTestId('account-save'));
    await expectFieldError('account-name', 'No máximo 200 caracteres');
    expect(posts(calls, '/api/user')).toHaveLength(0);
  });

  it('shows a refusal that names the currency at the currency field', async () => {
    const message = 'A moeda não pode mudar depois que a conta tem transações.';
    api({
      'POST /api/user': () => ({
        status: 409,
        json: {
          error: 'currency_locked',
          message: 'The currency cannot change once the account has transactions',
          field: 'currency',
        },
      }),
    });
    await open();
    fireEvent.change(screen.getByTestId('account-currency'), { target: { value: 'USD' } });
    fireEvent.click(screen.getByTestId('account-save'));
    await expectFieldError('account-currency', message);
    await expectFocused('account-currency');
    expect(screen.queryByTestId('account-form-error')).toBeNull();
  });
});

describe('sign-in address confirmation', () => {
  it('says an unconfirmed address gets no notification and resends its link', async () => {
    let confirmedUser = user({ email_confirmed: false });
    const calls = api(
      {
        'POST /api/user/email-confirmation': () => ({ json: confirmedUser }),
      },
      confirmedUser,
    );
    await open();
    const status = screen.getByTestId('account-email-status');
    expect(status.dataset.confirmed).toBe('false');
    expect(status.textContent).toContain('nenhuma notificação');
    confirmedUser = user({ email_confirmed: false });
    fireEvent.click(screen.getByTestId('account-email-resend'));
    expect((await screen.findByTestId('account-email-sent')).textContent).toBe(
      'Enviamos um novo link de confirmação para ana@example.com.',
    );
    expect(posts(calls, '/api/user/email-confirmation')).toHaveLength(1);
  });

  it('shows a resend refused too soon in words, from the catalogue', async () => {
    api(
      {
        'POST /api/user/email-confirmation': () => ({
          status: 429,
          json: { error: 'email_too_soon', message: 'A confirmation e-mail was sent a moment ago' },
        }),
      },
      user({ email_confirmed: false }),
    );
    await open();
    fireEvent.click(screen.getByTestId('account-email-resend'));
    expect((await screen.findByTestId('account-email-error')).textContent).toBe(
      'Um e-mail de confirmação acabou de ser enviado; tente de novo em alguns minutos.',
    );
  });

  it('offers no resend once the address is confirmed', async () => {
    api({}, user({ email_confirmed: true }));
    await open();
    expect(screen.getByTestId('account-email-status').dataset.confirmed).toBe('true');
    expect(screen.queryByTestId('account-email-resend')).toBeNull();
  });

  it('confirms from the link only when the button is pressed, and names a stale link', async () => {
    let answer: { status?: number; json: unknown } = {
      status: 422,
      json: { error: 'email_link_invalid', message: 'invalid', field: 'token' },
    };
    const calls = mockApi({ 'POST /api/confirm-email': () => answer });
    renderRoutes(
      [{ path: paths.confirmEmail.pattern, element: <ConfirmEmailRoute /> }],
      '/confirm-email?token=abc',
    );
    const button = await screen.findByTestId('confirm-email-button');
    expect(calls).toHaveLength(0);
    fireEvent.click(button);
    expect((await screen.findByTestId('confirm-email-error')).textContent).toBe(
      'Este link de confirmação é inválido, foi substituído por um mais novo ou expirou.',
    );
    answer = { json: { message: 'E-mail address confirmed' } };
    fireEvent.click(screen.getByTestId('confirm-email-button'));
    await screen.findByTestId('confirm-email-done');
    expect(posts(calls, '/api/confirm-email').map((c) => c.body)).toEqual([
      { token: 'abc' },
      { token: 'abc' },
    ]);
  });
});

describe('password change', () => {
  const type = (testId: string, value: string) =>
    fireEvent.change(screen.getByTestId(testId), { target: { value } });

  it('sends the current and the new password, then clears the form', async () => {
    const calls = api({ 'POST /api/user/password': () => ({ json: { message: 'Password changed' } }) });
    await open();
    type('password-current', 'senha-antiga-1');
    type('password-new', 'senha-nova-123');
    type('password-confirm', 'senha-nova-123');
    fireEvent.click(screen.getByTestId('password-save'));
    await waitFor(() =>
      expect(posts(calls, '/api/user/password')[0]?.body).toEqual({
        current_password: 'senha-antiga-1',
        new_password: 'senha-nova-123',
      }),
    );
    expect(await screen.findByText('Senha alterada. As outras sessões foram encerradas.')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId<HTMLInputElement>('password-current').value).toBe(''));
  });

  it('checks the new password and its confirmation before sending', async () => {
    const calls = api();
    await open();
    type('password-current', 'senha-antiga-1');
    type('password-new', 'curta');
    type('password-confirm', 'curta');
    fireEvent.click(screen.getByTestId('password-save'));
    await expectFieldError('password-new', 'A senha deve ter pelo menos 8 caracteres');
    type('password-new', 'senha-nova-123');
    type('password-confirm', 'senha-outra-123');
    fireEvent.click(screen.getByTestId('password-save'));
    await expectFieldError('password-confirm', 'As senhas não conferem');
    expect(posts(calls, '/api/user/password')).toHaveLength(0);
  });

  it('shows a wrong current password at its field, in Portuguese', async () => {
    api({
      'POST /api/user/password': () => ({
        status: 422,
        json: {
          error: 'current_password_wrong',
          message: 'The current password is not right',
          field: 'current_password',
        },
      }),
    });
    await open();
    type('password-current', 'errada-123');
    type('password-new', 'senha-nova-123');
    type('password-confirm', 'senha-nova-123');
    fireEvent.click(screen.getByTestId('password-save'));
    await expectFieldError('password-current', 'A senha atual não confere');
    await expectFocused('password-current');
  });

  it('tells an administrator signed in as the user that the password is not theirs to change', async () => {
    api({}, user({ impersonator_id: 7 }));
    await open();
    expect(screen.getByTestId('password-form').textContent).toContain(
      'Um administrador conectado como este usuário não pode alterar a senha dele',
    );
    expect(screen.queryByTestId('password-save')).toBeNull();
  });
});

describe('transaction history', () => {
  it('starts at the current month with > disabled and steps back through earlier months', async () => {
    const calls = api();
    await open();
    await screen.findByTestId('history-empty');
    expect(gets(calls, '/api/transactions/2026-03')).toHaveLength(1);
    expect(screen.getByTestId('month-label').dataset.month).toBe('2026-03');
    expect(text('month-label')).toBe('março de 2026');
    const next = screen.getByTestId<HTMLButtonElement>('month-next');
    expect(next.disabled).toBe(true);

    fireEvent.click(screen.getByTestId('month-previous'));
    await waitFor(() => expect(gets(calls, '/api/transactions/2026-02')).toHaveLength(1));
    expect(next.disabled).toBe(false);
    fireEvent.click(screen.getByTestId('month-previous'));
    fireEvent.click(screen.getByTestId('month-previous'));
    await waitFor(() => expect(gets(calls, '/api/transactions/2025-12')).toHaveLength(1));
    expect(gets(calls, '/api/transactions/2026-01')).toHaveLength(1);
    expect(screen.getByTestId('month-label').dataset.month).toBe('2025-12');

    for (let step = 0; step < 3; step += 1) fireEvent.click(next);
    expect(screen.getByTestId('month-label').dataset.month).toBe('2026-03');
    expect(next.disabled).toBe(true);
    fireEvent.click(next);
    expect(screen.getByTestId('month-label').dataset.month).toBe('2026-03');
    expect(calls.some((c) => c.url === '/api/transactions/2026-04')).toBe(false);
  });

  it('lists the days of the month and opens a day with its transactions', async () => {
    const rows: Transaction[] = [
      {
        id: 11,
        created_at: '2026-03-05T12:30:00Z',
        description: 'Site loja.com.br',
        amount: -2000,
        currency: 'BRL',
      },
      {
        id: 12,
        created_at: '2026-03-05T13:00:00Z',
        description: 'Site blog.com.br',
        amount: -1000,
        currency: 'BRL',
      },
    ];
    const calls = api({
      'GET /api/transactions/2026-03': () => ({
        json: month('2026-03', [
          { date: '2026-03-05', total: -3000, count: 2 },
          { date: '2026-03-12', total: 5000, count: 1 },
        ]),
      }),
      'GET /api/transactions/2026-03/05': () => ({ json: rows }),
    });
    await open();
    const day = await screen.findByTestId('day-2026-03-05');
    expect(day.textContent).toContain('05/03/2026');
    expect(within(day).getByTestId('day-total').textContent).toBe('-R$ 30,00');
    expect(text('month-total')).toBe('R$ 20,00');

    fireEvent.click(within(day).getByTestId('day-detail'));
    const modal = await screen.findByTestId('day-modal');
    expect(within(modal).getByRole('heading').textContent).toBe('Transações de 05/03/2026');
    await within(modal).findByTestId('transaction-11');
    expect(
      within(modal)
        .getAllByTestId('transaction-description')
        .map((cell) => cell.textContent),
    ).toEqual(['Site loja.com.br', 'Site blog.com.br']);
    expect(
      within(modal)
        .getAllByTestId('transaction-amount')
        .map((cell) => cell.textContent),
    ).toEqual(['-R$ 20,00', '-R$ 10,00']);
    expect(gets(calls, '/api/transactions/2026-03/05')).toHaveLength(1);
    expect(calls.some((c) => c.url === '/api/transactions/2026-03/12')).toBe(false);

    fireEvent.click(within(modal).getByLabelText('Fechar'));
    await waitFor(() => expect(screen.queryByTestId('day-modal')).toBeNull());
  });
});

describe('plans modals', () => {
  const plan = (modal: HTMLElement, code: string) => {
    const card = within(modal).getByTestId(`plan-${code}`);
    return {
      name: within(card).getByTestId('plan-name').textContent,
      current: within(card).queryByTestId('plan-current') !== null,
      perSite: within(card).getByTestId('plan-per-site').textContent,
      fee: within(card).getByTestId('plan-fee').textContent,
      support: within(within(card).getByTestId('plan-support'))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    };
  };

  it('shows the BRL plans with their prices and support', async () => {
    api();
    await open();
    await waitFor(() => expect(screen.getByTestId<HTMLButtonElement>('plans-open-BRL').disabled).toBe(false));
    fireEvent.click(screen.getByTestId('plans-open-BRL'));
    const modal = await screen.findByTestId('plans-modal-BRL');
    expect(within(modal).getByRole('heading', { level: 2 }).textContent).toBe('Planos em reais (R$)');
    expect(plan(modal, 'basic')).toEqual({
      name: 'Básico',
      current: false,
      perSite: 'R$ 30,00 por mês por site',
      fee: 'sem mensalidade',
      support: ['Suporte por e-mail'],
    });
    expect(plan(modal, 'agency')).toEqual({
      name: 'Agência',
      current: true,
      perSite: 'R$ 20,00 por mês por site',
      fee: 'R$ 370,00 de mensalidade',
      support: ['Suporte por e-mail', 'Suporte por chat', 'Suporte por WhatsApp'],
    });
    expect(within(modal).queryByText(/Starter/)).toBeNull();
  });

  it('shows the USD plans with their prices and support', async () => {
    api();
    await open();
    await waitFor(() => expect(screen.getByTestId<HTMLButtonElement>('plans-open-USD').disabled).toBe(false));
    fireEvent.click(screen.getByTestId('plans-open-USD'));
    const modal = await screen.findByTestId('plans-modal-USD');
    expect(plan(modal, 'basic')).toEqual({
      name: 'Starter',
      current: false,
      perSite: 'US$ 7 por mês por site',
      fee: 'sem mensalidade',
      support: ['Suporte por e-mail'],
    });
    // Agency in BRL is the account's plan, not Agency in USD.
    expect(plan(modal, 'agency')).toEqual({
      name: 'Agency',
      current: false,
      perSite: 'US$ 5 por mês por site',
      fee: 'US$ 70 de mensalidade',
      support: ['Suporte por e-mail', 'Suporte por chat'],
    });
    expect(within(modal).queryByText(/Básico/)).toBeNull();
    fireEvent.click(within(modal).getByLabelText('Fechar'));
    await waitFor(() => expect(screen.queryByTestId('plans-modal-USD')).toBeNull());
  });
});

describe('card on file', () => {
  const config = { publicKey: 'pk_test_123', jsUrl: '/test/stripe-stand-in.js' };

  /** A stand-in for Stripe.js whose confirmation answers `result`. */
  function fakeStripe(result: StripeSetupResult) {
    const card = { mount: vi.fn(), destroy: vi.fn() };
    const elements = { create: vi.fn(() => card) };
    const stripe = {
      elements: vi.fn(() => elements),
      confirmCardSetup: vi.fn(() => Promise.resolve(result)),
    };
    const factory = vi.fn(() => stripe);
    vi.mocked(loadStripe).mockResolvedValue(factory);
    return { card, elements, stripe, factory };
  }

  const cardApi = (handlers: Record<string, Handler> = {}, account?: User) =>
    api(
      {
        'GET /api/stripe-config': () => ({ json: config }),
        'GET /api/stripe-setup-intent/1': () => ({ json: { client_secret: 'seti_secret' } }),
        ...handlers,
      },
      account,
    );

  async function openCard() {
    await open();
    fireEvent.click(await screen.findByTestId('card-open'));
    const modal = await screen.findByTestId('card-modal');
    await waitFor(() =>
      expect(within(modal).getByTestId<HTMLButtonElement>('card-save').disabled).toBe(false),
    );
    return modal;
  }

  it('says card payments are not configured when the config answers 503, with no card button', async () => {
    api();
    await open();
    expect((await screen.findByTestId('card-not-configured')).textContent).toBe(
      'Pagamentos com cartão não estão configurados.',
    );
    expect(screen.queryByTestId('card-open')).toBeNull();
    expect(loadStripe).not.toHaveBeenCalled();
  });

  it('loads the configured script and mounts the card element in pt-BR', async () => {
    const fake = fakeStripe({});
    cardApi({}, user({ has_card: false }));
    await open();
    expect((await screen.findByTestId('card-open')).textContent).toBe('Cadastrar cartão');
    fireEvent.click(screen.getByTestId('card-open'));
    const modal = await screen.findByTestId('card-modal');
    await waitFor(() =>
      expect(fake.card.mount).toHaveBeenCalledWith(within(modal).getByTestId('card-element')),
    );
    expect(loadStripe).toHaveBeenCalledWith('/test/stripe-stand-in.js');
    expect(fake.factory).toHaveBeenCalledWith('pk_test_123', { locale: 'pt-BR' });
    expect(fake.stripe.elements).toHaveBeenCalledWith({ locale: 'pt-BR' });
    expect(fake.elements.create).toHaveBeenCalledWith('card');
    expect(within(modal).getByTestId<HTMLInputElement>('billing-email').value).toBe('ana@example.com');
  });

  it('shows a confirmation error verbatim and does not set the default method', async () => {
    const fake = fakeStripe({ error: { message: 'Seu cartão foi recusado.' } });
    const calls = cardApi();
    const modal = await openCard();
    fireEvent.change(within(modal).getByTestId('billing-email'), {
      target: { value: ' financeiro@example.com ' },
    });
    fireEvent.click(within(modal).getByTestId('card-save'));
    const error = await within(modal).findByTestId('card-error');
    expect(error.textContent).toBe('Seu cartão foi recusado.');
    expect(error.className).toContain('alert-error');
    expect(gets(calls, '/api/stripe-setup-intent/1')).toHaveLength(1);
    expect(fake.stripe.confirmCardSetup).toHaveBeenCalledWith('seti_secret', {
      payment_method: { card: fake.card, billing_details: { email: 'financeiro@example.com' } },
    });
    expect(calls.some((c) => c.url.startsWith('/api/stripe-set-default-payment-method'))).toBe(false);
    expect(reloadPage).not.toHaveBeenCalled();
  });

  it('sets the confirmed method as default, then reloads the page', async () => {
    fakeStripe({ setupIntent: { payment_method: 'pm_123' } });
    const calls = cardApi({
      'POST /api/stripe-set-default-payment-method/1/pm_123': () => ({ status: 204 }),
    });
    const modal = await openCard();
    fireEvent.click(within(modal).getByTestId('card-save'));
    await waitFor(() => expect(reloadPage).toHaveBeenCalledTimes(1));
    expect(posts(calls, '/api/stripe-set-default-payment-method/1/pm_123')).toHaveLength(1);
  });

  it('only logs a failure to set the default method, and reloads anyway', async () => {
    fakeStripe({ setupIntent: { payment_method: 'pm_9' } });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const calls = cardApi({
      'POST /api/stripe-set-default-payment-method/1/pm_9': () => ({
        status: 500,
        json: { error: 'Stripe is down' },
      }),
    });
    const modal = await openCard();
    fireEvent.click(within(modal).getByTestId('card-save'));
    await waitFor(() => expect(reloadPage).toHaveBeenCalledTimes(1));
    expect(posts(calls, '/api/stripe-set-default-payment-method/1/pm_9')).toHaveLength(1);
    expect(logged).toHaveBeenCalled();
    expect(within(modal).queryByTestId('card-error')).toBeNull();
  });

  it('requires a valid billing e-mail, at its field', async () => {
    const fake = fakeStripe({});
    const calls = cardApi();
    const modal = await openCard();
    fireEvent.change(within(modal).getByTestId('billing-email'), { target: { value: '' } });
    fireEvent.click(within(modal).getByTestId('card-save'));
    await expectFieldError('billing-email', 'Informe o e-mail de cobrança');
    await expectFocused('billing-email');
    fireEvent.change(within(modal).getByTestId('billing-email'), { target: { value: 'financeiro@' } });
    fireEvent.click(within(modal).getByTestId('card-save'));
    await expectFieldError('billing-email', 'E-mail inválido');
    expect(gets(calls, '/api/stripe-setup-intent/1')).toHaveLength(0);
    expect(fake.stripe.confirmCardSetup).not.toHaveBeenCalled();
  });
});
