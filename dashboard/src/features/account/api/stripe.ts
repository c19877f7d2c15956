import { useQuery } from '@tanstack/react-query';
import { ApiError, apiJson } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { StripeConfig } from '@/features/account/types';

/**
 * GET /api/stripe-config → {publicKey, jsUrl}; null when card payments are not configured (503),
 * the spec's "Payment card: configured or not configured".
 */
export async function getStripeConfig(): Promise<StripeConfig | null> {
  try {
    return await apiJson<StripeConfig>('/api/stripe-config');
  } catch (error) {
    if (error instanceof ApiError && error.status === 503) return null;
    throw error;
  }
}

export function useStripeConfig() {
  return useQuery({ queryKey: queryKeys.stripeConfig, queryFn: getStripeConfig, staleTime: Infinity });
}

/** GET /api/stripe-setup-intent/{user_id} → {client_secret}. */
export function getSetupIntent(userId: number): Promise<{ client_secret: string }> {
  return apiJson<{ client_secret: string }>(`/api/stripe-setup-intent/${userId}`);
}

/** POST /api/stripe-set-default-payment-method/{user_id}/{payment_method} → 204. */
export function setDefaultPaymentMethod(userId: number, paymentMethod: string): Promise<void> {
  return apiJson<void>(
    `/api/stripe-set-default-payment-method/${userId}/${encodeURIComponent(paymentMethod)}`,
    { method: 'POST' },
  );
}
