// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { mockApi, renderRoutes } from '@/testing/render-route';
import type { SiteIdentity } from '@/lib/site/identity';
import type { BlockVar } from '@/features/pages/types';
import { EditorContext, type EditorContextValue } from '@/features/pages/components/editor-context';
import { VarEditor } from './VarEditor';

const context: EditorContextValue = { userId: 1, projectId: 7, tables: [], postFields: null };

const identity: SiteIdentity = {
  name: 'Doces da Bruna',
  description: '',
  logo: '',
  whatsapp: '5511987654321',
  phone: '',
  email: '',
  address: '',
  hours: '',
  social: { instagram: '', facebook: '', tiktok: '', youtube: '', linkedin: '', x: '' },
};

function mount(initial: BlockVar) {
  const seen: BlockVar[] = [];
  mockApi({
    'GET /api/projects/7/identity': () => ({ json: identity }),
    'GET /api/projects/7/theme': () => ({
      json: {
        theme: {
          primary: '#b45309',
          accent: '#f59e0b',
          background: '#fffbeb',
          text: '#1f2937',
          headingFont: '',
          bodyFont: '',
        },
        contrast: { text: 14, primary: 5, accent: 9 },
        warnings: [],
      },
    }),
  });
  function Harness() {
    const [v, setV] = useState(initial);
    return (
      <EditorContext.Provider value={context}>
        <VarEditor
          uid="b-1"
          v={v}
          onChange={(change) =>
            setV((current) => {
              const next = { ...current, ...(typeof change === 'function' ? change(current) : change) };
              seen.push(next);
              return next;
            })
          }
        />
      </EditorContext.Provider>
    );
  }
  renderRoutes([{ path: '/', element: <Harness /> }], '/');
  return { last: () => seen.at(-1) };
}

describe('colour variables in the Block tab', () => {
  it('edit with the colour field: the label names the hex box, the theme palette is offered', async () => {
    const accent = mount({ name: 'accent', type: 'color', label: 'Cor de destaque', value: '#166534' });
    const hex = screen.getByLabelText<HTMLInputElement>('Cor de destaque');
    expect(hex.value).toBe('#166534');
    const primary = await screen.findByRole('button', { name: 'Primária' });
    fireEvent.click(primary);
    expect(accent.last()?.value).toBe('#b45309');
    fireEvent.click(screen.getByRole('button', { name: 'Tema' }));
    expect(accent.last()?.value).toBe('');
  });

  it("read an empty value as the theme's colour", () => {
    mount({ name: 'accent', type: 'color', label: 'Cor de destaque', value: '' });
    expect(screen.getByRole('button', { name: 'Tema' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('give a background its colour fields too', async () => {
    const bg = mount({ name: 'bg', type: 'background', value: { type: 'solid', color: '#ffffff' } });
    const box = within(screen.getByTestId('var-bg'));
    fireEvent.click(await box.findByRole('button', { name: 'Fundo' }));
    expect(bg.last()?.value).toMatchObject({ type: 'solid', color: '#fffbeb' });
  });
});

describe('variables that fall back to the site identity', () => {
  it('show the identity value when empty, with a link to the identity screen', async () => {
    mount({ name: 'brand', type: 'text', label: 'Nome da marca', value: '', identity: 'name' });
    const hint = await screen.findByText(/Da identidade do site: Doces da Bruna/);
    const input = screen.getByLabelText<HTMLInputElement>('Nome da marca');
    expect(input.placeholder).toBe('Da identidade do site: Doces da Bruna');
    expect(within(hint).getByRole('link', { name: 'Editar a identidade do site' }).getAttribute('href')).toBe(
      '/project/7/identity',
    );
  });

  it('read the WhatsApp link from the number', async () => {
    mount({ name: 'cta', type: 'link', label: 'Botão', value: null, identity: 'whatsapp_url' });
    expect(await screen.findByText(/Da identidade do site: https:\/\/wa.me\/5511987654321/)).toBeTruthy();
  });

  it('show no hint once the owner types a value of their own', async () => {
    const brand = mount({ name: 'brand', type: 'text', label: 'Nome da marca', value: '', identity: 'name' });
    await screen.findByTestId('identity-hint');
    fireEvent.change(screen.getByLabelText('Nome da marca'), { target: { value: 'Outra' } });
    expect(brand.last()?.value).toBe('Outra');
    expect(screen.queryByTestId('identity-hint')).toBeNull();
  });
});
