import { describe, expect, it } from 'vitest';
import { toastDuration } from './toast-duration';

describe('toastDuration', () => {
  it('is two seconds for an empty message', () => {
    expect(toastDuration('')).toBe(2000);
  });

  it('adds one second per 50 characters', () => {
    expect(toastDuration('x'.repeat(50))).toBe(3000);
    expect(toastDuration('x'.repeat(25))).toBe(2500);
    expect(toastDuration('x'.repeat(125))).toBe(4500);
  });
});
