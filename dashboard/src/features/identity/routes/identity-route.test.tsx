// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { paths } from '@/app/paths';
import { mockApi, renderRoutes, type ApiCall, type Handler } from '@/testing/render-route';
import { projectFixture } from '@/testing/fixtures';
import { getToasts } from '@/testing/toasts';
import type { SiteIdentity, ThemeAnswer } from '@/lib/site/identity';
import { IdentityRoute } from '@/features/identity/routes/IdentityRoute';

const routes = [
  { path: '/', element: <p>home</p> },
  { path: paths.project.pattern, element: <p>overview</p> },
  { path: paths.projectIdentity.pattern, element: <IdentityRoute /> },
];

const identity: SiteIdentity = {
  name: 'Doces da Bruna',
  description: 'Bolos e doces',
  logo: '',
  whatsapp: '5511987654321',
  phone: '',
  email: 'contato@docesdabruna.com.br',
  address: '',
  hours: '',
  social: { instagram: '', facebook: '', tiktok: '', youtube: '', linkedin: '', x: '' },
};

const theme: ThemeAnswer = {
  theme: {
    primary: '#b45309',
    accent: '#f59e0b',
    background: '#fffbeb',
    text: '#1f2937',
    headingFont: 'Playfair Display',
    bodyFont: '',
  },
  contrast: { text: 14.2, primary: 5.1, accent: 8.7 },
  warnings: [],
};

function open(handlers: Record<string, Handler> = {}): ApiCall[] {
  const calls = mockApi({
    'GET /api/projects/7': () => ({ json: projectFixture(7) }),
    'GET /api/user': () => ({ status: 401, json: { error: 'unauthorized', message: 'no' } }),
    'GET /api/projects/7/identity': () => ({ json: identity }),
    'GET /api/projects/7/theme': () => ({ json: theme }),
    'PUT /api/projects/7/identity': (call) => ({ json: call.body }),
    'PUT /api/projects/7/theme': (call) => ({ json: { ...theme, theme: call.body } }),
    ...handlers,
  });
  renderRoutes(routes, '/project/7/identity');
  return calls;
}

const puts = (calls: ApiCall[]) => calls.filter((call) => call.method === 'PUT');
const field = (id: string) => screen.getByTestId<HTMLInputElement>(id);
const type = (id: string, value: string) => fireEvent.change(field(id), { target: { value } });

describe('identity screen', () => {
  it('shows the stored identity and theme', async () => {
    open();
    expect((await screen.findByTestId<HTMLInputElement>('identity-name')).value).toBe('Doces da Bruna');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Identidade do site');
    expect(field('theme-primary-hex').value).toBe('#b45309');
    expect(screen.getByTestId('theme-headingFont-value').textContent).toBe('Playfair Display');
    expect(screen.getByTestId('theme-bodyFont-value').textContent).toBe('Padrão da plataforma');
  });

  it('checks the name, WhatsApp, e-mail and links as the server does, and sends nothing', async () => {
    const calls = open();
    await screen.findByTestId('identity-name');
    type('identity-name', '   ');
    type('identity-whatsapp', '1234');
    type('identity-email', 'não é e-mail');
    type('identity-social-instagram', 'instagram.com/docesdabruna');
    fireEvent.click(screen.getByTestId('identity-save'));
    expect(await screen.findByText('Informe o nome do negócio')).toBeTruthy();
    expect(screen.getByText('Informe o número com DDD, por exemplo (11) 98765-4321')).toBeTruthy();
    expect(screen.getByText('Informe um endereço que comece com https://')).toBeTruthy();
    expect(field('identity-email').getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(field('identity-name')));
    expect(puts(calls)).toHaveLength(0);
  });

  it('saves the identity with the WhatsApp number as digits, then the theme', async () => {
    const calls = open();
    await screen.findByTestId('identity-name');
    type('identity-name', '  Doces da Bruna Ltda  ');
    type('identity-whatsapp', '(11) 98765-4321');
    type('theme-accent-hex', '#0EA5E9');
    fireEvent.click(screen.getByTestId('identity-save'));
    await waitFor(() => expect(puts(calls)).toHaveLength(2));
    const [identityPut, themePut] = puts(calls);
    expect(identityPut?.url).toBe('/api/projects/7/identity');
    expect(identityPut?.body).toMatchObject({ name: 'Doces da Bruna Ltda', whatsapp: '5511987654321' });
    expect(themePut?.url).toBe('/api/projects/7/theme');
    expect(themePut?.body).toEqual({ ...theme.theme, accent: '#0ea5e9' });
    await waitFor(() =>
      expect(getToasts().map((toast) => toast.message)).toContain('Identidade e tema salvos'),
    );
  });

  it("shows the server's refusal translated at the field it names", async () => {
    const calls = open({
      'PUT /api/projects/7/identity': () => ({
        status: 422,
        json: {
          error: 'too_long',
          message: 'must be at most 300 characters',
          field: 'facebook',
          params: { max: 300 },
        },
      }),
    });
    await screen.findByTestId('identity-name');
    fireEvent.click(screen.getByTestId('identity-save'));
    const facebook = field('identity-social-facebook');
    await waitFor(() => expect(facebook.getAttribute('aria-invalid')).toBe('true'));
    const error = facebook.closest('.field')?.querySelector('.field-error');
    expect(error?.textContent).toContain('300');
    expect(error?.textContent).not.toContain('must be');
    expect(puts(calls)).toHaveLength(1);
  });

  it('warns while colours are chosen when text on the background is below WCAG AA', async () => {
    open();
    await screen.findByTestId('identity-name');
    expect(screen.queryByTestId('contrast-warning')).toBeNull();
    expect(screen.getByTestId('contrast-text').className).not.toContain('is-low');
    type('theme-text-hex', '#d6d3d1');
    const warning = await screen.findByTestId('contrast-warning');
    expect(warning.textContent).toContain('difíceis de ler');
    expect(screen.getByTestId('contrast-text').className).toContain('is-low');
    expect(screen.getByTestId('contrast-text').textContent).toContain('4,5:1');
    // The preview paints the text in the chosen colour on the background.
    const preview = screen.getByTestId('theme-preview');
    expect(preview.style.color).toBe('rgb(214, 211, 209)');
    expect(preview.style.background).toContain('rgb(255, 251, 235)');
  });

  it("lists the server's contrast warnings after a save, which it does not refuse", async () => {
    open({
      'PUT /api/projects/7/theme': (call) => ({
        json: { ...theme, theme: call.body, warnings: ['low_contrast_text', 'low_contrast_primary'] },
      }),
    });
    await screen.findByTestId('identity-name');
    fireEvent.click(screen.getByTestId('identity-save'));
    const warnings = await screen.findByTestId('theme-saved-warnings');
    expect(
      within(warnings)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['texto sobre o fundo (mínimo 4,5:1)', 'texto no botão principal (mínimo 4,5:1)']);
  });

  it('uploads the logo with a styled button, never a bare file input', async () => {
    const calls = open({ 'POST /api/upload': () => new Response('/files/uploads/7/logo.png') });
    await screen.findByTestId('identity-name');
    const button = screen.getByTestId('identity-logo-upload');
    expect(button.tagName).toBe('BUTTON');
    expect(button.textContent).toBe('Enviar logotipo');
    const input = screen.getByTestId<HTMLInputElement>('identity-logo-upload-input');
    expect(input.hidden).toBe(true);
    const file = new File(['png'], 'logo.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [file] } });
    await screen.findByRole('img', { name: 'Logotipo' });
    expect(calls.find((call) => call.url === '/api/upload')?.body).toMatchObject({
      name: 'logo.png',
      accept: 'image',
    });
    fireEvent.click(screen.getByTestId('identity-save'));
    await waitFor(() => expect(puts(calls)[0]?.body).toMatchObject({ logo: '/files/uploads/7/logo.png' }));
  });
});
