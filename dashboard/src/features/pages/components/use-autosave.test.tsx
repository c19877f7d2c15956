// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUTOSAVE_MS, useAutosave } from './use-autosave';

afterEach(() => {
  vi.useRealTimers();
});

function setup(persist: (snapshot: string) => Promise<void>, onError = vi.fn()) {
  return renderHook(
    ({ version, snapshot }) => useAutosave({ version, snapshot, persist, onError, initialSavedAt: null }),
    {
      initialProps: { version: 0, snapshot: 'v0' },
    },
  );
}

describe('useAutosave', () => {
  it('saves AUTOSAVE_MS after the last edit, then is clean', async () => {
    vi.useFakeTimers();
    const persist = vi.fn(() => Promise.resolve());
    const hook = setup(persist);
    expect(hook.result.current.dirty).toBe(false);
    hook.rerender({ version: 1, snapshot: 'v1' });
    expect(hook.result.current.dirty).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(AUTOSAVE_MS - 1));
    hook.rerender({ version: 2, snapshot: 'v2' });
    await act(() => vi.advanceTimersByTimeAsync(AUTOSAVE_MS - 1));
    expect(persist).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(persist).toHaveBeenCalledWith('v2');
    expect(hook.result.current.dirty).toBe(false);
    expect(hook.result.current.savedAt).toBeInstanceOf(Date);
  });

  it('runs a save asked for during another one afterwards, with what is current then', async () => {
    let finish: () => void = () => undefined;
    const persist = vi.fn((snapshot: string) =>
      snapshot === 'v1' ? new Promise<void>((resolve) => (finish = resolve)) : Promise.resolve(),
    );
    const hook = setup(persist);
    hook.rerender({ version: 1, snapshot: 'v1' });
    let first: Promise<void> = Promise.resolve();
    act(() => {
      first = hook.result.current.save();
    });
    expect(hook.result.current.saving).toBe(true);
    hook.rerender({ version: 2, snapshot: 'v2' });
    await act(() => hook.result.current.save());
    expect(persist).toHaveBeenCalledTimes(1);
    await act(async () => {
      finish();
      await first;
    });
    expect(persist.mock.calls.map(([snapshot]) => snapshot)).toEqual(['v1', 'v2']);
    expect(hook.result.current.dirty).toBe(false);
  });

  it('keeps the changes unsaved when a save fails', async () => {
    const onError = vi.fn();
    const hook = setup(() => Promise.reject(new Error('down')), onError);
    hook.rerender({ version: 1, snapshot: 'v1' });
    await act(() => hook.result.current.save());
    expect(onError).toHaveBeenCalledWith(new Error('down'));
    expect(hook.result.current.dirty).toBe(true);
    expect(hook.result.current.saving).toBe(false);
  });
});
