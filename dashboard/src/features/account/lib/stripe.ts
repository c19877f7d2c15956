/**
 * The card provider's client library (Stripe.js), loaded on demand from the URL the server
 * configures (GET /api/stripe-config → jsUrl), never from a hard-coded address. In a module of its
 * own so component tests can replace it with a stand-in.
 */

export interface StripeCardElement {
  mount(target: HTMLElement): void;
  destroy?(): void;
}

export interface StripeElements {
  create(type: 'card', options?: Record<string, unknown>): StripeCardElement;
}

export interface StripeSetupResult {
  error?: { message?: string };
  setupIntent?: { payment_method?: string | { id: string } | null };
}

export interface StripeClient {
  elements(options?: { locale?: string }): StripeElements;
  confirmCardSetup(
    clientSecret: string,
    data: { payment_method: { card: StripeCardElement; billing_details: { email: string } } },
  ): Promise<StripeSetupResult>;
}

export type StripeFactory = (publicKey: string, options?: { locale?: string }) => StripeClient;

declare global {
  interface Window {
    Stripe?: StripeFactory;
  }
}

const loading = new Map<string, Promise<StripeFactory>>();

/** Injects `<script src={jsUrl}>` once and resolves to `window.Stripe`. */
export function loadStripe(jsUrl: string): Promise<StripeFactory> {
  if (window.Stripe) return Promise.resolve(window.Stripe);
  const pending = loading.get(jsUrl);
  if (pending) return pending;
  const promise = new Promise<StripeFactory>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = jsUrl;
    script.async = true;
    script.addEventListener('load', () => {
      if (window.Stripe) resolve(window.Stripe);
      else reject(new Error(`${jsUrl} did not define Stripe`));
    });
    script.addEventListener('error', () => {
      loading.delete(jsUrl);
      script.remove();
      reject(new Error(`Could not load ${jsUrl}`));
    });
    document.head.appendChild(script);
  });
  loading.set(jsUrl, promise);
  return promise;
}

/** The id of the payment method a confirmed setup produced. */
export function paymentMethodId(result: StripeSetupResult): string | null {
  const method = result.setupIntent?.payment_method;
  if (!method) return null;
  return typeof method === 'string' ? method : method.id;
}
