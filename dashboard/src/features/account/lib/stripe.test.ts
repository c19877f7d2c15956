// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { loadStripe, paymentMethodId, type StripeFactory } from './stripe';

afterEach(() => {
  delete window.Stripe;
  document.head.innerHTML = '';
});

describe('loadStripe', () => {
  it('injects the configured script once and resolves to window.Stripe when it loads', async () => {
    const first = loadStripe('/test/stripe-stand-in.js');
    const second = loadStripe('/test/stripe-stand-in.js');
    const scripts = document.head.querySelectorAll('script');
    expect(scripts).toHaveLength(1);
    expect(scripts[0]?.getAttribute('src')).toBe('/test/stripe-stand-in.js');
    const factory = (() => ({})) as unknown as StripeFactory;
    window.Stripe = factory;
    scripts[0]?.dispatchEvent(new Event('load'));
    await expect(first).resolves.toBe(factory);
    await expect(second).resolves.toBe(factory);
    // Already there: no second script.
    await expect(loadStripe('/test/stripe-stand-in.js')).resolves.toBe(factory);
    expect(document.head.querySelectorAll('script')).toHaveLength(1);
  });

  it('rejects when the script fails to load', async () => {
    const loading = loadStripe('/test/missing.js');
    document.head.querySelector('script')?.dispatchEvent(new Event('error'));
    await expect(loading).rejects.toThrow('/test/missing.js');
  });
});

describe('paymentMethodId', () => {
  it('reads the id as a string or an object', () => {
    expect(paymentMethodId({ setupIntent: { payment_method: 'pm_1' } })).toBe('pm_1');
    expect(paymentMethodId({ setupIntent: { payment_method: { id: 'pm_2' } } })).toBe('pm_2');
    expect(paymentMethodId({})).toBeNull();
  });
});
