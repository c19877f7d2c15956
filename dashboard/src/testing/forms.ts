import { screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';

/** Generous: the full suite runs on two shared cores. */
const timeout = 3000;

/**
 * The control `testId` shows `message` at its field: it is marked invalid and its
 * aria-describedby names the element holding the message.
 */
export async function expectFieldError(testId: string, message: string): Promise<HTMLElement> {
  const control = screen.getByTestId(testId);
  await waitFor(() => expect(control.getAttribute('aria-invalid')).toBe('true'), { timeout });
  await waitFor(
    () => {
      const described = (control.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .filter(Boolean)
        .map((id) => document.getElementById(id)?.textContent);
      expect(described).toContain(message);
    },
    { timeout },
  );
  return control;
}

/** The control `testId` has the focus (the first invalid field of a refused submit). */
export async function expectFocused(testId: string): Promise<void> {
  await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId(testId)), { timeout });
}
