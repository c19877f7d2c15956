import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Alert } from '@/components/Alert';
import { Form, FormActions } from '@/components/Form';
import { InputField } from '@/components/FormControls';
import { Dialog } from '@/components/ui/Dialog';
import { errorMessage } from '@/lib/api-client';
import { useZodForm } from '@/lib/forms';
import { isValidEmail } from '@/lib/validation';
import type { User } from '@/lib/types';
import { getSetupIntent, setDefaultPaymentMethod } from '@/features/account/api/stripe';
import { reloadPage } from '@/features/account/lib/reload-page';
import {
  loadStripe,
  paymentMethodId,
  type StripeCardElement,
  type StripeClient,
} from '@/features/account/lib/stripe';
import type { StripeConfig } from '@/features/account/types';

/** Spec 2 §9: the payment form is in pt-BR whatever the interface language. */
const PAYMENT_FORM_LOCALE = 'pt-BR';

/** The billing e-mail given to the payment provider: required, and an address. */
const cardSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, 'account.billingEmailRequired')
    .refine((value) => value.length === 0 || isValidEmail(value), 'validation.emailInvalid'),
});

interface Props {
  user: User;
  config: StripeConfig;
  onClose: () => void;
}

/**
 * Card on file: a billing e-mail and the provider's card element. Submitting asks for a setup
 * intent, confirms the card with the provider, then makes it the default method and reloads the
 * page (a failure of that last call is only logged). A confirmation error is shown verbatim.
 */
export function CardModal({ user, config, onClose }: Props) {
  const { t } = useTranslation();
  const target = useRef<HTMLDivElement>(null);
  const [provider, setProvider] = useState<{ stripe: StripeClient; card: StripeCardElement } | null>(null);
  const { form, bind } = useZodForm(cardSchema, {
    defaultValues: { email: user.email },
    serverFields: [],
  });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let cancelled = false;
    let mounted: StripeCardElement | null = null;
    loadStripe(config.jsUrl)
      .then((Stripe) => {
        if (cancelled || !target.current) return;
        const stripe = Stripe(config.publicKey, { locale: PAYMENT_FORM_LOCALE });
        const elements = stripe.elements({ locale: PAYMENT_FORM_LOCALE });
        const card = elements.create('card');
        card.mount(target.current);
        mounted = card;
        setProvider({ stripe, card });
      })
      .catch((failure: unknown) => {
        if (!cancelled) setError(errorMessage(failure));
      });
    return () => {
      cancelled = true;
      mounted?.destroy?.();
    };
  }, [config.jsUrl, config.publicKey]);

  const submit = async ({ email }: { email: string }) => {
    if (!provider) return;
    setError(null);
    setBusy(true);
    try {
      const { client_secret } = await getSetupIntent(user.id);
      const result = await provider.stripe.confirmCardSetup(client_secret, {
        payment_method: { card: provider.card, billing_details: { email } },
      });
      if (result.error) {
        setError(result.error.message ?? t('common.error'));
        setBusy(false);
        return;
      }
      const method = paymentMethodId(result);
      if (method) {
        try {
          await setDefaultPaymentMethod(user.id, method);
        } catch (failure) {
          console.error('Setting the default payment method failed', failure);
        }
      }
      reloadPage();
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  };

  return (
    <Dialog title={t('account.cardTitle')} onClose={onClose} testId="card-modal">
      <Form form={form} onValid={submit} className="form">
        {error !== null && <Alert testId="card-error">{error}</Alert>}
        <InputField
          label={t('account.billingEmail')}
          id="billing-email"
          type="email"
          required
          autoComplete="email"
          {...bind('email')}
        />
        <div className="field">
          <span className="label">{t('account.card')}</span>
          <div ref={target} className="card-element" data-testid="card-element" />
          {!provider && error === null && <small className="muted">{t('account.cardLoading')}</small>}
        </div>
        <FormActions
          onCancel={onClose}
          cancelTestId="card-cancel"
          isDisabled={!provider || busy}
          testId="card-save"
        >
          {t('account.cardSave')}
        </FormActions>
      </Form>
    </Dialog>
  );
}
