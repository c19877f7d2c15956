// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { paths } from '@/app/paths';
import { expectFieldError, expectFocused } from '@/testing/forms';
import { mockApi, renderRoutes, type Handler } from '@/testing/render-route';
import { projectFixture } from '@/testing/fixtures';
import { NewProjectRoute } from '@/features/projects/routes/NewProjectRoute';
import { ProjectEditRoute } from '@/features/projects/routes/ProjectEditRoute';

const routes = [
  { path: '/', element: <p>home</p> },
  { path: '/project/:projectId', element: <p>overview</p> },
  { path: paths.projectNew.pattern, element: <NewProjectRoute /> },
  { path: paths.projectEdit.pattern, element: <ProjectEditRoute /> },
];

describe('project settings form', () => {
  const api = (save: () => { status?: number; json?: unknown }) =>
    mockApi({
      'GET /api/projects/7': () => ({ json: projectFixture(7) }),
      'GET /api/user': () => ({ status: 401, json: { error: 'unauthorized', message: 'no' } }),
      'GET /api/fonts': () => ({ json: [] }),
      'POST /api/projects/7': save,
    });

  it('shows a reserved slug at its field, focused, and sends nothing', async () => {
    const calls = api(() => ({ json: projectFixture(7) }));
    renderRoutes(routes, '/project/7/edit');
    const slug = await screen.findByTestId('settings-slug');
    fireEvent.change(slug, { target: { value: 'admin' } });
    fireEvent.click(screen.getByTestId('settings-save'));
    const error = await screen.findByText('Este endereço é reservado, escolha outro');
    expect(slug.getAttribute('aria-describedby')).toContain(error.id);
    await waitFor(() => expect(document.activeElement).toBe(slug));
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it("puts the server's error on the field it names", async () => {
    const message = 'slug já está em uso';
    api(() => ({
      status: 409,
      json: { error: 'slug_taken', message: 'slug already in use', field: 'slug' },
    }));
    renderRoutes(routes, '/project/7/edit');
    const slug = await screen.findByTestId('settings-slug');
    fireEvent.change(slug, { target: { value: 'outra-loja' } });
    fireEvent.click(screen.getByTestId('settings-save'));
    const error = await screen.findByText(message);
    expect(error.closest('.field')?.contains(slug)).toBe(true);
    expect(slug.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByTestId('settings-error')).toBeNull();
  });
});

describe('new project form', () => {
  it('asks for a name at its field', async () => {
    const calls = mockApi({ 'GET /api/templates': () => ({ json: [] }) });
    renderRoutes(routes, '/project/new');
    fireEvent.click(await screen.findByTestId('create-project-submit'));
    const error = await screen.findByText('O nome do projeto é obrigatório');
    expect(screen.getByTestId('project-name-input').getAttribute('aria-describedby')).toBe(error.id);
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it('shows each published theme with a large picture and a link to its full preview', async () => {
    const theme = (id: number, name: string, published: '1' | '0') => ({
      id,
      name,
      description: `Tema ${name}`,
      category: 'Loja',
      order: id,
      is_published: published,
      thumbnail: id === 3 ? '/files/templates/3.png' : null,
    });
    mockApi({
      'GET /api/templates': () => ({
        json: [theme(3, 'Padaria', '1'), theme(4, 'Viagem', '1'), theme(5, 'Rascunho', '0')],
      }),
    });
    renderRoutes(routes, '/project/new');
    await screen.findAllByTestId('template-card');
    const options = screen.getAllByTestId('template-option');
    expect(
      options.map((o) => within(o).getByTestId('template-card').querySelector('strong')?.textContent),
    ).toEqual(['Padaria', 'Viagem']);
    const [bakery, travel] = options as [HTMLElement, HTMLElement];
    expect(bakery.querySelector('.template-thumb img')?.getAttribute('src')).toBe('/files/templates/3.png');
    expect(travel.querySelector('.template-thumb iframe')?.getAttribute('sandbox')).toBe('');
    const link = within(bakery).getByTestId('template-preview-link');
    expect(link.getAttribute('href')).toBe('/template/3');
    expect(link.getAttribute('aria-label')).toBe('Ver a prévia completa do tema Padaria');
    expect(link.textContent).toBe('Ver prévia completa →');
    // Choosing stays a radio choice beside the link.
    fireEvent.click(within(travel).getByTestId('template-card'));
    expect(within(travel).getByTestId('template-card').getAttribute('aria-checked')).toBe('true');
  });
});

describe('integrations dialog', () => {
  it('names the spreadsheet options in words, not as query parameters', async () => {
    mockApi({
      'GET /api/projects/7': () => ({ json: projectFixture(7) }),
      'GET /api/projects/7/sheet-token': () => ({ json: { token: 'sheet-tok' } }),
      'GET /api/user': () => ({ status: 401, json: { error: 'unauthorized', message: 'no' } }),
      'GET /api/fonts': () => ({ json: [] }),
    });
    renderRoutes(routes, '/project/7/edit');
    fireEvent.click(await screen.findByTestId('integrations-open'));
    const dialog = await screen.findByTestId('integrations-modal');
    expect(dialog.textContent).not.toMatch(/\((phone|gtags)=1\)/);
    await within(dialog).findByTestId('sheets-link');
    fireEvent.click(within(dialog).getByLabelText('Incluir o telefone de quem enviou'));
    expect(within(dialog).getByTestId<HTMLInputElement>('sheets-link').value).toMatch(/\?phone=1$/);
  });

  it("shows the spreadsheet link with its own token, never the client panel's, and rotates it alone", async () => {
    let sheet = 'sheet-1';
    const calls = mockApi({
      'GET /api/projects/7': () => ({ json: projectFixture(7) }),
      'GET /api/projects/7/sheet-token': () => ({ json: { token: sheet } }),
      'POST /api/projects/7/sheet-token': () => {
        sheet = 'sheet-2';
        return { json: { token: sheet } };
      },
      'GET /api/user': () => ({ status: 401, json: { error: 'unauthorized', message: 'no' } }),
      'GET /api/fonts': () => ({ json: [] }),
    });
    renderRoutes(routes, '/project/7/edit');
    fireEvent.click(await screen.findByTestId('integrations-open'));
    const dialog = within(await screen.findByTestId('integrations-modal'));
    const link = await dialog.findByTestId<HTMLInputElement>('sheets-link');
    expect(link.value).toMatch(/\/google-sheets\/7\/sheet-1$/);
    expect(link.value).not.toContain('/tok');
    fireEvent.click(dialog.getByTestId('sheets-rotate'));
    await waitFor(() =>
      expect(dialog.getByTestId<HTMLInputElement>('sheets-link').value).toMatch(
        /\/google-sheets\/7\/sheet-2$/,
      ),
    );
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.url)).toEqual([
      '/api/projects/7/sheet-token',
    ]);
  });

  it('offers to make a spreadsheet link when the site has none', async () => {
    mockApi({
      'GET /api/projects/7': () => ({ json: projectFixture(7) }),
      'GET /api/projects/7/sheet-token': () => ({ json: { token: null } }),
      'POST /api/projects/7/sheet-token': () => ({ json: { token: 'new-sheet' } }),
      'GET /api/user': () => ({ status: 401, json: { error: 'unauthorized', message: 'no' } }),
      'GET /api/fonts': () => ({ json: [] }),
    });
    renderRoutes(routes, '/project/7/edit');
    fireEvent.click(await screen.findByTestId('integrations-open'));
    const dialog = within(await screen.findByTestId('integrations-modal'));
    expect((await dialog.findByTestId('sheets-none')).textContent).toBe(
      'Este site ainda não tem link de planilha.',
    );
    expect(dialog.getByTestId('sheets-rotate').textContent).toBe('Gerar link');
    fireEvent.click(dialog.getByTestId('sheets-rotate'));
    expect((await dialog.findByTestId<HTMLInputElement>('sheets-link')).value).toMatch(
      /\/google-sheets\/7\/new-sheet$/,
    );
  });

  async function openIntegrations(save: Handler) {
    const calls = mockApi({
      'GET /api/projects/7': () => ({ json: projectFixture(7) }),
      'GET /api/projects/7/sheet-token': () => ({ json: { token: 'sheet-tok' } }),
      'GET /api/user': () => ({ status: 401, json: { error: 'unauthorized', message: 'no' } }),
      'GET /api/fonts': () => ({ json: [] }),
      'POST /api/projects/7': save,
    });
    renderRoutes(routes, '/project/7/edit');
    fireEvent.click(await screen.findByTestId('integrations-open'));
    const dialog = within(await screen.findByTestId('integrations-modal'));
    fireEvent.click(dialog.getByTestId('conversion-api-enabled'));
    return { calls, dialog };
  }

  it('says what the Conversion API does: the pixel, a server-side Lead per form, the token kept on the server', async () => {
    const { dialog } = await openIntegrations(() => ({ json: projectFixture(7) }));
    const help = dialog.getByTestId('conversion-api-help').textContent ?? '';
    expect(help).toContain('evento Lead enviado pelo servidor');
    expect(help).toContain('nunca vai para o site publicado');
  });

  it('asks for the token and a digits-only pixel id at their fields once the Conversion API is on', async () => {
    const { calls, dialog } = await openIntegrations(() => ({ json: projectFixture(7) }));
    fireEvent.change(dialog.getByTestId('conversion-pixel'), { target: { value: '12a' } });
    fireEvent.click(dialog.getByTestId('integrations-save'));
    await expectFieldError(
      'conversion-token',
      'O token de acesso é obrigatório quando a API de Conversões está ativada',
    );
    await expectFieldError('conversion-pixel', 'O ID do pixel deve conter somente dígitos');
    await expectFocused('conversion-token');
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it("shows the server's refusal at the field it names", async () => {
    const { dialog } = await openIntegrations(() => ({
      status: 422,
      json: { error: 'pixel_id_required', message: 'Pixel ID is required', field: 'conversionApiPixelId' },
    }));
    fireEvent.change(dialog.getByTestId('conversion-token'), { target: { value: 'tok' } });
    fireEvent.change(dialog.getByTestId('conversion-pixel'), { target: { value: '123' } });
    fireEvent.click(dialog.getByTestId('integrations-save'));
    await expectFieldError(
      'conversion-pixel',
      'O ID do pixel é obrigatório quando a API de Conversões está ativada',
    );
    await expectFocused('conversion-pixel');
    expect(dialog.queryByTestId('integrations-error')).toBeNull();
  });

  it('saves the trimmed settings in the project meta', async () => {
    const { calls, dialog } = await openIntegrations(() => ({ json: projectFixture(7) }));
    fireEvent.change(dialog.getByTestId('conversion-token'), { target: { value: ' tok ' } });
    fireEvent.change(dialog.getByTestId('conversion-pixel'), { target: { value: ' 123 ' } });
    fireEvent.click(dialog.getByTestId('integrations-save'));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
        meta: { conversionApiEnabled: true, conversionApiAccessToken: 'tok', conversionApiPixelId: '123' },
      }),
    );
    await waitFor(() => expect(screen.queryByTestId('integrations-modal')).toBeNull());
  });
});
