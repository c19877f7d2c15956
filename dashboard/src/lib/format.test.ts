import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from './format';

describe('date formatting', () => {
  it('formats local dates as dd/mm/yyyy hh:mm', () => {
    const iso = new Date(2026, 0, 5, 9, 7).toISOString();
    expect(formatDate(iso)).toBe('05/01/2026');
    expect(formatDateTime(iso)).toBe('05/01/2026 09:07');
  });

  it('returns unparseable input unchanged', () => {
    expect(formatDateTime('soon')).toBe('soon');
  });
});
