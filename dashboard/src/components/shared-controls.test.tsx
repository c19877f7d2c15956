// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, renderHook, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import '@/lib/i18n';
import { ApiError } from '@/lib/api-client';
import { useZodForm } from '@/lib/forms';
import { SearchInput, ToolbarSelect } from './Toolbar';

afterEach(cleanup);

describe('Toolbar', () => {
  it('names the search box by its placeholder and hands back what was typed', () => {
    const onChange = vi.fn();
    render(<SearchInput label="Buscar projetos" value="" onChange={onChange} testId="search" />);
    const box = screen.getByRole('searchbox', { name: 'Buscar projetos' });
    expect(box.getAttribute('placeholder')).toBe('Buscar projetos');
    expect(box.className).toBe('toolbar-search');
    fireEvent.change(box, { target: { value: 'loja' } });
    expect(onChange).toHaveBeenCalledWith('loja');
  });

  it('hands back the chosen option as it was given, a number stays a number', () => {
    const onChange = vi.fn();
    render(
      <ToolbarSelect
        label="Por página"
        value={10}
        options={[10, 25, -1]}
        optionLabel={(size) => (size === -1 ? 'Todos' : size)}
        onChange={onChange}
        testId="page-size"
      />,
    );
    const select = screen.getByRole('combobox', { name: 'Por página' });
    expect(screen.getByRole('option', { name: 'Todos' })).toBeTruthy();
    fireEvent.change(select, { target: { value: '-1' } });
    expect(onChange).toHaveBeenCalledWith(-1);
  });
});

describe('useZodForm submitTo', () => {
  const schema = z.object({ name: z.string() });
  const setup = () =>
    renderHook(() => useZodForm(schema, { defaultValues: { name: '' }, serverFields: ['name'] })).result;

  it("runs the mutation and the caller's success", () => {
    const form = setup();
    const onSuccess = vi.fn();
    const mutation = {
      mutate: vi.fn((_: string, options: { onSuccess: (data: number) => void }) => options.onSuccess(7)),
    };
    act(() => form.current.submitTo(mutation, 'x', { onSuccess }));
    expect(mutation.mutate.mock.calls[0]?.[0]).toBe('x');
    expect(onSuccess).toHaveBeenCalledWith(7);
  });

  it('reports a refusal that names a field at the field, any other in the alert, and forgets it on the next save', () => {
    const form = setup();
    const onError = vi.fn();
    let fail: (error: Error) => void = () => undefined;
    const mutation = {
      mutate: (_: string, options: { onError: (error: Error) => void }) => {
        fail = options.onError;
      },
    };
    act(() => form.current.submitTo(mutation, 'x', { onError }));
    act(() => fail(new ApiError(422, 'invalid', 'Nome em uso', 'name')));
    expect(form.current.form.getFieldState('name').error?.message).toBe('Nome em uso');
    expect(form.current.failure.message).toBeUndefined();
    expect(onError).toHaveBeenCalledTimes(1);

    act(() => form.current.submitTo(mutation, 'x'));
    act(() => fail(new ApiError(500, 'internal', 'Falhou')));
    expect(form.current.failure.message).toBeTruthy();
    act(() => form.current.submitTo(mutation, 'x'));
    expect(form.current.failure.message).toBeUndefined();
  });
});

describe('useZodForm saveWith', () => {
  const schema = z.object({ name: z.string() });

  it("sends the values' variables, then closes the dialog after the caller's success, and not on a failure", async () => {
    const form = renderHook(() =>
      useZodForm(schema, { defaultValues: { name: '' }, serverFields: ['name'] }),
    ).result;
    const calls: string[] = [];
    const onClose = vi.fn(() => calls.push('close'));
    const onSuccess = vi.fn(() => calls.push('success'));
    const onError = vi.fn();
    let outcome: { ok: true } | { ok: false; error: Error } = { ok: true };
    const mutation = {
      isPending: false,
      mutate: vi.fn(
        (_: string, options: { onSuccess: (data: number) => void; onError: (error: Error) => void }) => {
          if (outcome.ok) options.onSuccess(7);
          else options.onError(outcome.error);
        },
      ),
    };
    const dialog = form.current.saveWith(mutation, ({ name }) => `name=${name}`, onClose, {
      onSuccess,
      onError,
    });
    expect(dialog.onClose).toBe(onClose);

    await act(() => dialog.onValid({ name: 'Ana' }));
    expect(mutation.mutate.mock.calls[0]?.[0]).toBe('name=Ana');
    expect(onSuccess).toHaveBeenCalledWith(7);
    expect(calls).toEqual(['success', 'close']);

    outcome = { ok: false, error: new ApiError(500, 'internal', 'Falhou') };
    await act(() => dialog.onValid({ name: 'Ana' }));
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
