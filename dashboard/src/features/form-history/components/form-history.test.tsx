// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { paths } from '@/app/paths';
import { expectFieldError, expectFocused } from '@/testing/forms';
import { getToasts } from '@/testing/toasts';
import { pageFixture, projectFixture } from '@/testing/fixtures';
import { acceptConfirm, confirmText } from '@/testing/dialogs';
import { mockApi, renderRoutes } from '@/testing/render-route';
import { ConfirmFormEmailRoute } from '@/features/form-history/routes/ConfirmFormEmailRoute';
import { FormHistoryRoute } from '@/features/form-history/routes/FormHistoryRoute';
import type { FormEmail, FormEntry, HistoryLimit } from '@/features/form-history/types';

const routes = [
  { path: paths.projectFormHistory.pattern, element: <FormHistoryRoute /> },
  { path: paths.confirmFormEmail.pattern, element: <ConfirmFormEmailRoute /> },
];
const HISTORY = '/api/projects/7/form-history';
const EMAIL = '/api/projects/7/form-email';
const NO_WARNING: HistoryLimit = { max_entries: 10000, trimmed: 0, last_trimmed_at: null, warning: null };
const OWNER: FormEmail = {
  email: null,
  recipient: 'ana@example.com',
  status: 'owner',
  requested_at: null,
  confirmed_at: null,
};

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

function api(
  entries: FormEntry[],
  extra: Parameters<typeof mockApi>[0] = {},
  limit: HistoryLimit = NO_WARNING,
  email: FormEmail = OWNER,
) {
  return mockApi({
    'GET /api/projects/7': () => ({ json: projectFixture(7) }),
    [`GET ${HISTORY}`]: () => ({
      json: {
        project: projectFixture(7),
        history: pageFixture(entries, entries.length, 1, 100, HISTORY),
        limit,
      },
    }),
    [`GET ${EMAIL}`]: () => ({ json: email }),
    ...extra,
  });
}

describe('form history', () => {
  it('shows each entry with its data as sanitised HTML', async () => {
    api([
      entry(
        1,
        '<p><b>Nome:</b> Ana</p><script>window.hacked = 1</script><img src="x" onerror="window.hacked = 2">',
      ),
    ]);
    renderRoutes(routes, '/project/7/form-history');
    const data = await screen.findByTestId('entry-data');
    expect(data.querySelector('b')?.textContent).toBe('Nome:');
    expect(data.querySelector('script')).toBeNull();
    expect(data.querySelector('img')?.getAttribute('onerror')).toBeNull();
    expect(screen.getByTestId('entry-subject').textContent).toBe('Contato 1');
    expect(screen.getByText('ana@example.com')).toBeTruthy();
  });

  it('opens a message in full from its date, every field and the whole message, then closes it', async () => {
    const long = `<p>${'Quero encomendar um bolo de chocolate para sábado. '.repeat(40)}</p><p>Fim da mensagem.</p>`;
    api([entry(1, '<p>a</p>'), entry(2, long)]);
    renderRoutes(routes, '/project/7/form-history');
    const dates = await screen.findAllByTestId('entry-date');
    expect(dates[1]?.tagName).toBe('BUTTON');
    expect(dates[1]?.getAttribute('aria-label')).toMatch(/^Abrir a mensagem de /);
    fireEvent.click(dates[1] as HTMLElement);
    const dialog = await screen.findByRole('dialog', { name: 'Mensagem do formulário' });
    const inside = within(dialog);
    expect(inside.getByTestId('form-entry-subject').textContent).toBe('Contato 2');
    expect(inside.getByTestId('form-entry-url').textContent).toBe('https://loja.example.com/contato');
    expect(inside.getByTestId('form-entry-submit').textContent).toBe('Enviar');
    expect(inside.getByTestId('form-entry-to').textContent).toBe('ana@example.com');
    const message = inside.getByTestId('form-entry-data');
    // All of it, unclipped: the opened message is not the table's scrolling preview.
    expect(message.className).toBe('submission-data is-full');
    expect(message.textContent).toContain('Fim da mensagem.');
    expect(message.textContent?.match(/bolo de chocolate/g)).toHaveLength(40);
    fireEvent.click(inside.getByRole('button', { name: 'Fechar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('keeps the date and subject on a phone and leaves the rest to the opened message', async () => {
    api([entry(1, '<p>a</p>')]);
    renderRoutes(routes, '/project/7/form-history');
    await screen.findByTestId('entry-date');
    const phoneHidden = [...document.querySelectorAll('th.hide-on-phone')].map((th) => th.textContent);
    expect(phoneHidden).toEqual(['Url', 'Botão', 'Para', 'Dados']);
  });

  it('deletes the selected entries after confirmation', async () => {
    const calls = api([entry(1, '<p>a</p>'), entry(2, '<p>b</p>'), entry(3, '<p>c</p>')], {
      [`DELETE ${HISTORY}`]: () => ({ json: { deleted: 2 } }),
    });
    renderRoutes(routes, '/project/7/form-history');
    const boxes = await screen.findAllByTestId('form-entry-select');
    // The bulk actions live in the selection bar, shown only while entries are chosen.
    expect(screen.queryByTestId('selection-bar')).toBeNull();
    expect(screen.queryByTestId('form-history-delete')).toBeNull();
    fireEvent.click(boxes[0] as HTMLElement);
    fireEvent.click(boxes[2] as HTMLElement);
    expect(screen.getByTestId('selection-count').textContent).toBe('2 selecionados');
    fireEvent.click(screen.getByTestId('form-history-delete'));
    expect(await confirmText()).toBe('Excluir 2 entradas? Esta ação não pode ser desfeita.');
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await acceptConfirm();
    await waitFor(() => expect(calls.find((c) => c.method === 'DELETE')?.body).toEqual({ selected: [1, 3] }));
    await waitFor(() =>
      expect(getToasts().map((t) => t.message)).toContain('Entradas selecionadas excluídas com sucesso.'),
    );
  });

  it('lays the entries out in a table whose headers do not sort (the API takes no order)', async () => {
    api([entry(1, '<p>a</p>'), entry(2, '<p>b</p>')]);
    renderRoutes(routes, '/project/7/form-history');
    const table = await screen.findByTestId('form-history-table');
    expect(table.closest('.table-scroll')).not.toBeNull();
    expect(table.getAttribute('data-total')).toBe('2');
    const headers = within(table).getAllByRole('columnheader');
    expect(headers.map((header) => header.textContent)).toEqual([
      '',
      'Data',
      'Url',
      'Botão',
      'Para',
      'Assunto',
      'Dados',
    ]);
    expect(headers.some((header) => header.hasAttribute('aria-sort'))).toBe(false);
    // No header is a sort button; the only buttons are the dates, which open their message.
    for (const header of headers) expect(within(header).queryAllByRole('button')).toEqual([]);
    expect(
      within(table)
        .getAllByRole('button')
        .map((button) => button.dataset.testid),
    ).toEqual(['entry-date', 'entry-date']);
  });

  it('selects every entry of the page at once and clears the selection from the bar', async () => {
    api([entry(1, '<p>a</p>'), entry(2, '<p>b</p>'), entry(3, '<p>c</p>')]);
    renderRoutes(routes, '/project/7/form-history');
    fireEvent.click(await screen.findByTestId('form-history-select-all'));
    expect(screen.getByTestId('selection-count').textContent).toBe('3 selecionados');
    const boxes = screen.getAllByTestId<HTMLInputElement>('form-entry-select');
    expect(boxes.every((box) => box.checked)).toBe(true);
    fireEvent.click(screen.getByTestId('selection-clear'));
    expect(screen.queryByTestId('selection-bar')).toBeNull();
    expect(boxes.some((box) => box.checked)).toBe(false);
  });

  it('searches, filters by date and pages on the server, keeping the filter in the address', async () => {
    const calls = api([entry(1, '<p>a</p>')]);
    const router = renderRoutes(routes, '/project/7/form-history');
    await screen.findByTestId('form-history-table');
    fireEvent.change(screen.getByTestId('form-history-search'), { target: { value: ' Caio ' } });
    fireEvent.change(screen.getByTestId('form-history-from'), { target: { value: '2025-03-02' } });
    fireEvent.change(screen.getByTestId('form-history-to'), { target: { value: '2025-03-03' } });
    fireEvent.click(screen.getByTestId('form-history-apply'));
    await waitFor(() => expect(router.state.location.search).toBe('?q=Caio&from=2025-03-02&to=2025-03-03'));
    const asked = await waitFor(() => {
      const last = calls.filter((c) => c.url.startsWith(HISTORY)).at(-1);
      const params = new URL(last?.url ?? '', 'http://x').searchParams;
      expect(params.get('q')).toBe('Caio');
      return params;
    });
    // The user's own days, sent as instants: from the first day's start to the day after the last.
    expect(asked.get('from')).toBe(new Date(2025, 2, 2).toISOString());
    expect(asked.get('to')).toBe(new Date(2025, 2, 4).toISOString());
    expect(asked.get('page')).toBe('1');
    // The export follows the filter in force.
    const exportLink = screen.getByTestId('form-history-export');
    const exported = new URL(exportLink.getAttribute('href') ?? '', 'http://x');
    expect(exported.pathname).toBe('/api/projects/7/form-history/export');
    expect(exported.searchParams.get('q')).toBe('Caio');
    expect(exported.searchParams.get('from')).toBe(asked.get('from'));
    expect(exportLink.textContent).toBe('Exportar CSV');
    // Clearing the filter asks for everything again.
    fireEvent.click(screen.getByTestId('form-history-clear'));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.getByTestId<HTMLInputElement>('form-history-search').value).toBe('');
  });

  it('says when nothing matches and refuses a date range that runs backwards', async () => {
    const calls = api([]);
    renderRoutes(routes, '/project/7/form-history?q=ninguem');
    expect((await screen.findByTestId('form-history-empty')).textContent).toBe(
      'Nenhum envio corresponde à busca.',
    );
    expect(screen.getByTestId<HTMLInputElement>('form-history-search').value).toBe('ninguem');
    const before = calls.length;
    fireEvent.change(screen.getByTestId('form-history-from'), { target: { value: '2025-03-05' } });
    fireEvent.change(screen.getByTestId('form-history-to'), { target: { value: '2025-03-01' } });
    expect(screen.getByTestId('form-history-range-error').textContent).toBe(
      'A data inicial deve vir antes da final.',
    );
    expect(screen.getByTestId<HTMLButtonElement>('form-history-apply').disabled).toBe(true);
    expect(screen.getByTestId('form-history-to').getAttribute('aria-invalid')).toBe('true');
    fireEvent.submit(screen.getByTestId('form-history-filters'));
    expect(calls.length).toBe(before);
  });

  it('picks a thank-you page among the static pages and shows the server refusing one', async () => {
    const pages = [
      {
        id: 11,
        name: 'Início',
        slug: '/',
        table_id: null,
        is_home: true,
        updated_at: '2025-03-01T12:00:00Z',
      },
      {
        id: 12,
        name: 'Obrigado',
        slug: 'obrigado',
        table_id: null,
        is_home: false,
        updated_at: '2025-03-01T12:00:00Z',
      },
      {
        id: 13,
        name: 'Produto',
        slug: 'produto',
        table_id: 4,
        is_home: false,
        updated_at: '2025-03-01T12:00:00Z',
      },
    ];
    let refuse = true;
    const calls = mockApi({
      'GET /api/projects/7': () => ({ json: projectFixture(7, { pages }) }),
      [`GET ${HISTORY}`]: () => ({
        json: { project: projectFixture(7), history: pageFixture([], 0, 1, 100, HISTORY), limit: NO_WARNING },
      }),
      [`GET ${EMAIL}`]: () => ({ json: OWNER }),
      'POST /api/projects/7/settings': () =>
        refuse
          ? {
              status: 422,
              json: { error: 'thank_you_page_invalid', message: 'x', field: 'formThankYouPage' },
            }
          : { json: projectFixture(7, { meta: { formThankYouPage: 12 } }) },
    });
    renderRoutes(routes, '/project/7/form-history');
    fireEvent.click(await screen.findByTestId('form-history-settings-open'));
    const select = screen.getByTestId<HTMLSelectElement>('form-thank-you-page');
    expect(select.value).toBe('');
    // The collection page has no path of its own: it is not offered.
    expect(Array.from(select.options).map((o) => o.textContent)).toEqual([
      'Nenhuma (confirmar na página do formulário)',
      'Início',
      'Obrigado',
    ]);
    fireEvent.change(select, { target: { value: '12' } });
    fireEvent.click(screen.getByTestId('form-history-settings-save'));
    await expectFieldError(
      'form-thank-you-page',
      'Escolha uma página deste projeto como página de agradecimento.',
    );
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      formHistoryOrderBy: '-created_at',
      formThankYouPage: 12,
    });
    refuse = false;
    fireEvent.click(screen.getByTestId('form-history-settings-save'));
    await waitFor(() => expect(screen.queryByTestId('form-history-settings')).toBeNull());
  });

  it('saves the order chosen in the settings modal', async () => {
    const calls = api([entry(1, '<p>a</p>')], {
      'POST /api/projects/7/settings': () => ({
        json: projectFixture(7, { meta: { formHistoryOrderBy: 'created_at' } }),
      }),
    });
    renderRoutes(routes, '/project/7/form-history');
    fireEvent.click(await screen.findByTestId('form-history-settings-open'));
    const select = screen.getByTestId<HTMLSelectElement>('form-history-order');
    expect(select.value).toBe('-created_at');
    fireEvent.change(select, { target: { value: 'created_at' } });
    fireEvent.click(screen.getByTestId('form-history-settings-save'));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
        formHistoryOrderBy: 'created_at',
        formThankYouPage: null,
      }),
    );
    await waitFor(() => expect(screen.queryByTestId('form-history-settings')).toBeNull());
    const reloads = calls.filter((c) => c.method === 'GET' && c.url.startsWith(HISTORY));
    expect(reloads.length).toBeGreaterThanOrEqual(2);
  });

  it('warns the owner when the cap deleted old entries and while the notification address is unconfirmed', async () => {
    const trimmed: HistoryLimit = {
      max_entries: 3,
      trimmed: 2,
      last_trimmed_at: '2025-03-01T12:00:00Z',
      warning: 'trimmed',
    };
    const pending: FormEmail = {
      email: 'vendas@loja.example',
      recipient: 'vendas@loja.example',
      status: 'pending',
      requested_at: '2025-03-01T12:00:00Z',
      confirmed_at: null,
    };
    api([entry(1, '<p>a</p>')], {}, trimmed, pending);
    renderRoutes(routes, '/project/7/form-history');
    const notice = await screen.findByTestId('form-history-trimmed');
    expect(notice.textContent).toContain('3 entradas mais recentes');
    expect(notice.textContent).toContain('2 entradas mais antigas foram excluídas');
    const waiting = await screen.findByTestId('form-email-pending');
    expect(waiting.textContent).toContain('Aguardando confirmação');
    expect(waiting.textContent).toContain('vendas@loja.example');
    expect(screen.queryByTestId('form-history-near')).toBeNull();
  });

  it('sets a notification address, shows it waiting for confirmation and resends the link', async () => {
    const pending: FormEmail = {
      email: 'vendas@loja.example',
      recipient: 'vendas@loja.example',
      status: 'pending',
      requested_at: '2025-03-01T12:00:00Z',
      confirmed_at: null,
    };
    const calls = api([entry(1, '<p>a</p>')], {
      [`POST ${EMAIL}`]: () => ({ json: pending }),
      [`POST ${EMAIL}/resend`]: () => ({
        status: 429,
        json: {
          error: 'too_many_requests',
          message: 'A confirmation e-mail was sent a moment ago; try again in a few minutes',
        },
      }),
    });
    renderRoutes(routes, '/project/7/form-history');
    fireEvent.click(await screen.findByTestId('form-history-settings-open'));
    const status = await screen.findByTestId('form-email-status');
    expect(status.getAttribute('data-status')).toBe('owner');
    expect(screen.queryByTestId('form-email-resend')).toBeNull();
    fireEvent.change(screen.getByTestId('form-email-input'), { target: { value: 'vendas@loja.example' } });
    fireEvent.click(screen.getByTestId('form-email-save'));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST' && c.url === EMAIL)?.body).toEqual({
        email: 'vendas@loja.example',
      }),
    );
    await waitFor(() =>
      expect(screen.getByTestId('form-email-status').getAttribute('data-status')).toBe('pending'),
    );
    await waitFor(() =>
      expect(getToasts().map((t) => t.message)).toContain(
        'Enviamos um link de confirmação para vendas@loja.example',
      ),
    );
    fireEvent.click(screen.getByTestId('form-email-resend'));
    await waitFor(() =>
      expect(getToasts().map((t) => t.message)).toContain(
        'A confirmation e-mail was sent a moment ago; try again in a few minutes',
      ),
    );
  });

  it("says nothing reaches the owner's own address until the account confirms it", async () => {
    api([], {}, NO_WARNING, { ...OWNER, status: 'owner_unconfirmed' });
    renderRoutes(routes, '/project/7/form-history');
    fireEvent.click(await screen.findByTestId('form-history-settings-open'));
    const status = await screen.findByTestId('form-email-status');
    expect(status.getAttribute('data-status')).toBe('owner_unconfirmed');
    expect(status.textContent).toContain('assim que ele for confirmado');
    expect(screen.queryByTestId('form-email-resend')).toBeNull();
  });

  it('refuses an invalid notification address at its field, and shows the server refusing one there', async () => {
    const calls = api([], {
      [`POST ${EMAIL}`]: () => ({
        status: 422,
        json: { error: 'email_invalid', message: 'invalid e-mail', field: 'formEmail' },
      }),
    });
    renderRoutes(routes, '/project/7/form-history');
    fireEvent.click(await screen.findByTestId('form-history-settings-open'));
    const input = await screen.findByTestId('form-email-input');
    fireEvent.change(input, { target: { value: 'vendas@' } });
    fireEvent.click(screen.getByTestId('form-email-save'));
    await expectFieldError('form-email-input', 'E-mail inválido');
    await expectFocused('form-email-input');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(input, { target: { value: 'vendas@loja.example' } });
    fireEvent.click(screen.getByTestId('form-email-save'));
    await expectFieldError('form-email-input', 'e-mail inválido');
    await expectFocused('form-email-input');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ email: 'vendas@loja.example' });
  });

  it('shows the server refusing the order at the order field', async () => {
    api([], {
      'POST /api/projects/7/settings': () => ({
        status: 422,
        json: {
          error: 'form_order_invalid',
          message: 'Order must be created_at or -created_at',
          field: 'formHistoryOrderBy',
        },
      }),
    });
    renderRoutes(routes, '/project/7/form-history');
    fireEvent.click(await screen.findByTestId('form-history-settings-open'));
    fireEvent.change(screen.getByTestId('form-history-order'), { target: { value: 'created_at' } });
    fireEvent.click(screen.getByTestId('form-history-settings-save'));
    await expectFieldError('form-history-order', 'Escolha mais recentes ou mais antigos primeiro.');
    await expectFocused('form-history-order');
    expect(screen.getByTestId('form-history-settings')).toBeTruthy();
  });

  it('confirms an address only when its reader presses the button', async () => {
    const calls = mockApi({
      'POST /api/form-email/confirm': () => ({ json: { email: 'vendas@loja.example', site: 'Loja da Ana' } }),
    });
    renderRoutes(routes, '/confirm-form-email?token=abc_123');
    const button = await screen.findByTestId('confirm-form-email-button');
    expect(calls).toHaveLength(0);
    fireEvent.click(button);
    const done = await screen.findByTestId('confirm-form-email-done');
    expect(done.textContent).toContain('Loja da Ana');
    expect(done.textContent).toContain('vendas@loja.example');
    expect(calls[0]?.body).toEqual({ token: 'abc_123' });
  });

  it('shows why a confirmation link no longer works', async () => {
    mockApi({
      'POST /api/form-email/confirm': () => ({
        status: 422,
        json: {
          error: 'form_email_link_invalid',
          message: 'This confirmation link is invalid, was replaced by a newer one or has expired',
          field: 'token',
        },
      }),
    });
    renderRoutes(routes, '/confirm-form-email?token=old');
    fireEvent.click(await screen.findByTestId('confirm-form-email-button'));
    expect((await screen.findByTestId('confirm-form-email-error')).textContent).toBe(
      'Este link de confirmação é inválido, foi substituído por um mais novo ou expirou.',
    );
  });
});
