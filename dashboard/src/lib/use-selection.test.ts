// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useSelection } from './use-selection';

describe('useSelection', () => {
  it('reports only chosen rows of the current page', () => {
    const { result, rerender } = renderHook(({ ids }) => useSelection(ids), {
      initialProps: { ids: [1, 2, 3] },
    });
    act(() => result.current.toggle(1, true));
    act(() => result.current.toggle(3, true));
    expect(result.current.chosen).toEqual([1, 3]);
    expect(result.current.allChosen).toBe(false);
    act(() => result.current.chooseAll(true));
    expect(result.current.allChosen).toBe(true);
    rerender({ ids: [3, 4] });
    expect(result.current.chosen).toEqual([3]);
    act(() => result.current.clear());
    expect(result.current.chosen).toEqual([]);
    expect(result.current.isChosen(3)).toBe(false);
  });
});
