// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { paths } from '@/app/paths';
import { projectFixture, userFixture } from '@/testing/fixtures';
import { expectFieldError, expectFocused } from '@/testing/forms';
import { mockApi, renderRoutes, type ApiCall, type Handler } from '@/testing/render-route';
import { getToasts } from '@/testing/toasts';
import { ProjectOverviewRoute } from '@/features/projects/routes/ProjectOverviewRoute';

const routes = [{ path: paths.project.pattern, element: <ProjectOverviewRoute /> }];

async function openModal(save: Handler) {
  const calls = mockApi({
    'GET /api/projects/7': () => ({ json: projectFixture(7, { name: 'Loja' }) }),
    'GET /api/user': () => ({ json: userFixture({ is_admin: true }) }),
    'GET /api/templates': () => ({
      json: [
        {
          id: 3,
          name: 'Tema da Loja',
          description: '',
          category: '',
          order: 1,
          is_published: '1',
          thumbnail: null,
        },
        {
          id: 4,
          name: 'Tema do Café',
          description: '',
          category: '',
          order: 2,
          is_published: '0',
          thumbnail: null,
        },
      ],
    }),
    'POST /api/templates': save,
  });
  renderRoutes(routes, '/project/7');
  fireEvent.click(await screen.findByTestId('save-template'));
  const modal = within(await screen.findByTestId('save-template-modal'));
  return { calls, modal };
}

const saves = (calls: ApiCall[]) =>
  calls.filter((call) => call.method === 'POST' && call.url === '/api/templates');

describe('SaveTemplateModal', () => {
  it('refuses an empty or too long name at its field and focuses it, without calling the server', async () => {
    const { calls, modal } = await openModal(() => ({ status: 201, json: {} }));
    expect(modal.getByTestId<HTMLInputElement>('template-name').value).toBe('Loja');
    fireEvent.change(modal.getByTestId('template-name'), { target: { value: '  ' } });
    fireEvent.click(modal.getByTestId('save-template-modal-save'));
    await expectFieldError('template-name', 'O nome do template é obrigatório');
    await expectFocused('template-name');
    fireEvent.change(modal.getByTestId('template-name'), { target: { value: 'é'.repeat(201) } });
    fireEvent.click(modal.getByTestId('save-template-modal-save'));
    await expectFieldError('template-name', 'No máximo 200 caracteres');
    expect(saves(calls)).toEqual([]);
  });

  it('shows a name already taken (the server names the field) at the name field', async () => {
    const { modal } = await openModal(() => ({
      status: 409,
      json: {
        error: 'template_name_taken',
        message: 'A template with this name already exists',
        field: 'name',
      },
    }));
    fireEvent.click(modal.getByTestId('save-template-modal-save'));
    await expectFieldError('template-name', 'Já existe um template com este nome.');
    await expectFocused('template-name');
    expect(modal.queryByTestId('save-template-modal-error')).toBeNull();
  });

  it('saves the trimmed name with the project id and closes', async () => {
    const { calls, modal } = await openModal(() => ({ status: 201, json: { id: 3, name: 'Tema' } }));
    fireEvent.change(modal.getByTestId('template-name'), { target: { value: ' Tema ' } });
    fireEvent.click(modal.getByTestId('save-template-modal-save'));
    await waitFor(() => expect(saves(calls)[0]?.body).toEqual({ project_id: 7, name: 'Tema' }));
    await waitFor(() => expect(screen.queryByTestId('save-template-modal')).toBeNull());
    expect(getToasts().some((toast) => toast.kind === 'success')).toBe(true);
  });

  it('updates an existing template: the one chosen, under its name unless changed', async () => {
    const { calls, modal } = await openModal(() => ({ status: 201, json: { id: 4, name: 'Tema do Café' } }));
    // Offered once the templates are known.
    const update = modal.getByLabelText<HTMLInputElement>('Atualizar um template existente');
    await waitFor(() => expect(update.disabled).toBe(false));
    fireEvent.click(update);
    // No template chosen yet: refused at the choice, nothing sent.
    fireEvent.click(modal.getByTestId('save-template-modal-save'));
    await waitFor(() =>
      expect(modal.getByTestId('save-template-target').textContent).toContain(
        'Escolha o template a atualizar.',
      ),
    );
    expect(saves(calls)).toEqual([]);

    fireEvent.click(within(modal.getByTestId('save-template-target')).getByRole('button'));
    fireEvent.click(await screen.findByRole('option', { name: 'Tema do Café' }));
    await waitFor(() =>
      expect(modal.getByTestId<HTMLInputElement>('template-name').value).toBe('Tema do Café'),
    );
    fireEvent.click(modal.getByTestId('save-template-modal-save'));
    await waitFor(() =>
      expect(saves(calls)[0]?.body).toEqual({ project_id: 7, name: 'Tema do Café', template_id: 4 }),
    );
    await waitFor(() => expect(screen.queryByTestId('save-template-modal')).toBeNull());
    expect(
      getToasts().some(
        (toast) => toast.kind === 'success' && toast.message === 'Template atualizado com sucesso',
      ),
    ).toBe(true);
  });

  it('shows a refusal that names no field above the form', async () => {
    const { modal } = await openModal(() => ({
      status: 503,
      json: { error: 'database_unavailable', message: 'The database is not answering right now' },
    }));
    fireEvent.click(modal.getByTestId('save-template-modal-save'));
    expect((await modal.findByTestId('save-template-modal-error')).textContent).toContain(
      'O banco de dados não está respondendo agora; tente de novo em instantes.',
    );
  });
});
