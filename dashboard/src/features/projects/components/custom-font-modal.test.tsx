// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { expectFieldError, expectFocused } from '@/testing/forms';
import { mockApi, renderRoutes, type ApiCall, type Handler } from '@/testing/render-route';
import { CustomFontModal } from './CustomFontModal';

function open(upload: Handler) {
  const calls = mockApi({ 'POST /api/upload': upload });
  const onAdd = vi.fn();
  const onClose = vi.fn();
  renderRoutes(
    [{ path: '/', element: <CustomFontModal prefix={[3, 7]} onAdd={onAdd} onClose={onClose} /> }],
    '/',
  );
  return { calls, onAdd, onClose };
}

const uploads = (calls: ApiCall[]) => calls.filter((call) => call.url === '/api/upload');
const woff2 = () => new File(['wOF2font'], 'Marca.woff2', { type: 'font/woff2' });
const choose = (file: File) =>
  fireEvent.change(screen.getByTestId('custom-font-file'), { target: { files: [file] } });
const save = () => fireEvent.click(screen.getByTestId('custom-font-modal-save'));

describe('CustomFontModal', () => {
  it('asks for a family and a file at their fields, focusing the family, without uploading', async () => {
    const { calls } = open(() => ({ json: '/files/x.woff2' }));
    save();
    await expectFieldError('custom-font-family', 'O nome da família é obrigatório');
    await expectFieldError('custom-font-file', 'Escolha um arquivo .woff2');
    await expectFocused('custom-font-family');
    expect(uploads(calls)).toEqual([]);
  });

  it('refuses a family the server would refuse and a file that is not .woff2', async () => {
    const { calls } = open(() => ({ json: '/files/x.woff2' }));
    await screen.findByTestId('custom-font-family');
    fireEvent.change(screen.getByTestId('custom-font-family'), { target: { value: 'Marca; x' } });
    choose(new File(['x'], 'marca.ttf'));
    save();
    await expectFieldError(
      'custom-font-family',
      'Use somente letras, números, espaços, hífens e sublinhados (no máximo 100 caracteres)',
    );
    await expectFieldError('custom-font-file', 'Somente arquivos .woff2 são aceitos');
    expect(uploads(calls)).toEqual([]);
  });

  it('shows the server refusing the file content at the file field', async () => {
    open(() => ({
      status: 422,
      json: { error: 'woff_only', message: 'Only .woff2 files are accepted', field: 'content' },
    }));
    fireEvent.change(await screen.findByTestId('custom-font-family'), { target: { value: 'Marca' } });
    choose(woff2());
    save();
    await expectFieldError('custom-font-file', 'Somente arquivos .woff2 são aceitos');
    await expectFocused('custom-font-file');
  });

  it('uploads the file as a font and adds the family with the chosen weight', async () => {
    const { calls, onAdd, onClose } = open(() => new Response('/files/uploads/3/7/ab.woff2\n'));
    fireEvent.change(await screen.findByTestId('custom-font-family'), { target: { value: ' Marca Sans ' } });
    fireEvent.change(screen.getByTestId('custom-font-weight'), { target: { value: '700' } });
    choose(woff2());
    save();
    await waitFor(() => expect(onAdd).toHaveBeenCalled());
    expect(uploads(calls)[0]?.body).toMatchObject({ name: 'Marca.woff2', prefix: [3, 7], accept: 'font' });
    expect((uploads(calls)[0]?.body as { content: string }).content).toMatch(/^data:/);
    expect(onAdd).toHaveBeenCalledWith({
      family: 'Marca Sans',
      variants: ['700'],
      filename: '/files/uploads/3/7/ab.woff2',
    });
    expect(onClose).toHaveBeenCalled();
  });
});
