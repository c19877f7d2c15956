import { describe, expect, it } from 'vitest';
import { addMonths, dayOf, monthOf } from './months';

describe('months', () => {
  it('steps across years', () => {
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(addMonths('2025-12', 1)).toBe('2026-01');
    expect(addMonths('2026-03', -14)).toBe('2025-01');
  });

  it('reads the local month of a date and formats days', () => {
    expect(monthOf(new Date(2026, 2, 31, 23, 59))).toBe('2026-03');
    expect(dayOf('2026-03-05')).toBe('05');
  });
});
