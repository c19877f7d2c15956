// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { toast as sonner } from 'sonner';
import { afterEach, describe, expect, it } from 'vitest';
import '@/lib/i18n';
import { showToast, toast, Toaster, toastDuration } from './toast';

afterEach(() => {
  cleanup();
  sonner.dismiss();
});

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

describe('toasts', () => {
  it('puts an error in a role="alert" element, announced at once', async () => {
    render(<Toaster />);
    act(() => toast.error('Falha ao salvar'));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Falha ao salvar');
    expect(alert.closest('[data-testid="toast-error"]')).not.toBeNull();
  });

  it('announces a success politely, with no alert role', async () => {
    render(<Toaster />);
    act(() => showToast('Salvo', 'success'));
    const item = await screen.findByTestId('toast-success');
    expect(item.textContent).toContain('Salvo');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(item.closest('[aria-live="polite"]')).not.toBeNull();
  });
});
