/**
 * Toasts, on sonner (small, accessible, maintained; a toast queue callable from anywhere, as
 * mutations and effects need). `showToast`/`toast.*` keep the spec's duration: 2 seconds plus the
 * message's length divided by 50 seconds. An error's text sits in a `role="alert"` element, so
 * screen readers announce it at once; success and info are announced politely by sonner's live
 * region. `<Toaster />` is mounted once, by the app's layout, once this module
 * is loaded (toaster-slot.ts).
 */
import { useTranslation } from 'react-i18next';
import { Toaster as SonnerToaster, toast as sonner } from 'sonner';
import { wantToaster } from './toaster-slot';

// This module loaded: a screen may raise toasts, so the layout mounts the toaster.
wantToaster();

export type ToastKind = 'success' | 'error' | 'info' | 'warning';

/** Spec: a toast lasts 2 seconds plus the message length divided by 50 seconds. */
export function toastDuration(message: string): number {
  return 2000 + (message.length / 50) * 1000;
}

/** Shows a message for toastDuration(message) milliseconds. */
export function showToast(message: string, kind: ToastKind = 'info'): void {
  const options = { duration: toastDuration(message), testId: `toast-${kind}` };
  if (kind === 'error') sonner.error(<span role="alert">{message}</span>, options);
  else if (kind === 'success') sonner.success(message, options);
  else if (kind === 'warning') sonner.warning(message, options);
  else sonner.info(message, options);
}

export const toast = {
  success: (message: string) => showToast(message, 'success'),
  error: (message: string) => showToast(message, 'error'),
  info: (message: string) => showToast(message, 'info'),
  /** Something saved that needs the owner's attention (a redirect that hides a page). */
  warning: (message: string) => showToast(message, 'warning'),
};

export function Toaster() {
  const { t } = useTranslation();
  return (
    <SonnerToaster
      position="bottom-right"
      richColors
      closeButton
      containerAriaLabel={t('kit.notifications')}
      toastOptions={{ closeButtonAriaLabel: t('common.close') }}
    />
  );
}
