import { describe, expect, it } from 'vitest';
import { clockTime, saveState } from './save-state';

describe('save state', () => {
  it('is saving first, then dirty, then saved', () => {
    const at = new Date(2026, 0, 2, 9, 5, 7);
    expect(saveState(true, true, at)).toEqual({ kind: 'saving' });
    expect(saveState(false, true, at)).toEqual({ kind: 'dirty' });
    expect(saveState(false, false, at)).toEqual({ kind: 'saved', at });
  });

  it('shows the time as HH:MM:SS', () => {
    expect(clockTime(new Date(2026, 0, 2, 9, 5, 7))).toBe('09:05:07');
    expect(clockTime(new Date(2026, 0, 2, 23, 59, 0))).toBe('23:59:00');
  });
});
