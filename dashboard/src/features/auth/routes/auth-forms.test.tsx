// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, renderRoutes } from '@/testing/render-route';
import { LoginCard } from '@/features/auth/components/LoginCard';
import { NewPasswordRoute } from '@/features/auth/routes/NewPasswordRoute';

const routes = [
  { path: '/login', element: <LoginCard /> },
  { path: '/forgot', element: <p>forgot page</p> },
  { path: '/new-password', element: <NewPasswordRoute /> },
];

describe('new-password page', () => {
  it('takes the token from the link and never shows it', async () => {
    const calls = mockApi({ 'POST /api/new-password': () => ({ json: { message: 'ok' } }) });
    renderRoutes(routes, '/new-password?email=ana%40example.com&token=secret-token');
    expect(screen.queryByLabelText(/token/i)).toBeNull();
    expect(document.body.textContent).not.toContain('secret-token');
    fireEvent.change(screen.getByLabelText('Nova senha'), { target: { value: 'uma-senha-boa' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar senha' }));
    await waitFor(() => expect(calls.some((call) => call.url === '/api/new-password')).toBe(true));
    expect(calls.find((call) => call.url === '/api/new-password')?.body).toEqual({
      email: 'ana@example.com',
      password: 'uma-senha-boa',
      token: 'secret-token',
    });
  });

  it('explains a link without a token and offers a new one', () => {
    mockApi({});
    renderRoutes(routes, '/new-password?email=ana%40example.com');
    expect(screen.getByTestId('new-password-broken-link').textContent).toContain(
      'Este link de redefinição está incompleto',
    );
    expect(screen.getByRole('link', { name: 'Pedir um novo link' }).getAttribute('href')).toBe('/forgot');
    expect(screen.queryByLabelText('Nova senha')).toBeNull();
  });

  it('shows a too-short password at its field, linked and focused', async () => {
    const calls = mockApi({});
    renderRoutes(routes, '/new-password?email=ana%40example.com&token=t');
    const input = screen.getByLabelText('Nova senha');
    fireEvent.change(input, { target: { value: 'curta' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar senha' }));
    const error = await screen.findByText('A senha deve ter pelo menos 8 caracteres');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toContain(error.id);
    await waitFor(() => expect(document.activeElement).toBe(input));
    expect(calls).toHaveLength(0);
  });

  it('an expired link says so and offers a new one', async () => {
    mockApi({
      'POST /api/new-password': () => ({
        status: 422,
        json: {
          error: 'reset_link_invalid',
          field: 'token',
          message: 'This password reset link is invalid or has expired',
        },
      }),
    });
    renderRoutes(routes, '/new-password?email=ana%40example.com&token=old');
    fireEvent.change(screen.getByLabelText('Nova senha'), { target: { value: 'uma-senha-boa' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar senha' }));
    expect((await screen.findByTestId('new-password-expired')).textContent).toContain('expirou');
  });
});

describe('sign-in form', () => {
  it('shows each error at its field and focuses the first one', async () => {
    const calls = mockApi({});
    renderRoutes(routes, '/login');
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'ana@' } });
    fireEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('E-mail inválido')).toBeTruthy();
    expect(screen.getByText('A senha é obrigatória')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('E-mail')));
    expect(screen.getByLabelText('Senha').getAttribute('aria-invalid')).toBe('true');
    expect(calls).toHaveLength(0);
  });
});
