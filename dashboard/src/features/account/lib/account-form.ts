/**
 * The account form, checked as `update_account` (control-plane/src/routes/account.rs) checks it:
 * a trimmed name of 1 to 200 characters, a language of pt-BR or en, a currency of BRL or USD.
 */
import { z } from 'zod';
import { languages } from '@/lib/i18n';
import type { Currency, Language } from '@/lib/types';
import { requiredTextField } from '@/lib/validation';

export const currencies = ['BRL', 'USD'] as const satisfies readonly Currency[];

export const accountFormSchema = z.object({
  name: requiredTextField('account.nameRequired', 200),
  language: z.custom<Language>((value) => languages.some((language) => language === value)),
  currency: z.enum(currencies),
});
export type AccountFormValues = z.input<typeof accountFormSchema>;
