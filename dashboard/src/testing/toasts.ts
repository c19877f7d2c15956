import { toast as sonner } from 'sonner';

/**
 * The toasts on screen, as `{kind, message}`, read from the DOM of the sonner `<Toaster />`
 * that `renderRoutes` mounts (each test's own: a fresh Toaster shows only toasts raised after it).
 */
export interface ShownToast {
  kind: string;
  message: string;
}

export function getToasts(): ShownToast[] {
  return Array.from(document.querySelectorAll<HTMLElement>('[data-sonner-toast]')).map((item) => ({
    kind: (item.dataset.testid ?? '').replace('toast-', ''),
    message: item.querySelector('[data-title]')?.textContent ?? '',
  }));
}

/** Dismisses every toast, so the next test's Toaster starts empty (sonner's queue is global). */
export function clearToasts(): void {
  sonner.dismiss();
}
