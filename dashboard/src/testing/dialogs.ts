/** Helpers for the kit's dialogs in component tests. */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';

/** Waits for the confirmation dialog and returns its text (title and message). */
export async function confirmText(): Promise<string> {
  const dialog = await screen.findByTestId('confirm-dialog');
  return (
    dialog.querySelector('h2')?.textContent +
    ' ' +
    (dialog.querySelector('.confirm-message')?.textContent ?? '')
  );
}

/** Presses the confirmation's action button. */
export async function acceptConfirm(): Promise<void> {
  fireEvent.click(await screen.findByTestId('confirm-dialog-confirm'));
  await waitFor(() => expect(screen.queryByTestId('confirm-dialog')).toBeNull());
}

/** Presses Cancel. */
export async function cancelConfirm(): Promise<void> {
  fireEvent.click(await screen.findByTestId('confirm-dialog-cancel'));
  await waitFor(() => expect(screen.queryByTestId('confirm-dialog')).toBeNull());
}
