/** Spec §8: every admin action (blocks, templates, users) toasts 'Feito' (green) on success and 'Falhou' (red) on failure, from the catalogue. */
import type { TFunction } from 'i18next';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';

export function toastOk(t: TFunction): void {
  toast.success(t('blockAdmin.ok'));
}

/** 'falha', followed by the server's message when there is one. */
export function toastFailure(t: TFunction, error: unknown): void {
  const message = errorMessage(error);
  toast.error(message ? t('blockAdmin.failedWith', { message }) : t('blockAdmin.failed'));
}

/** Mutation callbacks that toast the outcome. */
export function toastOutcome(t: TFunction) {
  return {
    onSuccess: () => toastOk(t),
    onError: (error: unknown) => toastFailure(t, error),
  };
}
