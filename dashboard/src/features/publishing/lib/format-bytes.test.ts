import { describe, expect, it } from 'vitest';
import { formatBytes } from './format-bytes';

describe('formatBytes', () => {
  it('uses decimal units with one decimal above bytes', () => {
    expect(formatBytes(0, 'en')).toBe('0 byte');
    expect(formatBytes(999, 'en')).toBe('999 byte');
    expect(formatBytes(1_536, 'en')).toBe('1.5 kB');
    expect(formatBytes(2_400_000, 'en')).toBe('2.4 MB');
    expect(formatBytes(3_000_000_000, 'en')).toBe('3 GB');
  });

  it('follows the interface language', () => {
    expect(formatBytes(1_536, 'pt-BR')).toBe('1,5 kB');
  });
});
