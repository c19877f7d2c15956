/**
 * The account form, checked as `update_account` (control-plane/src/routes/account.rs) checks it:
 * a trimmed name of 1 to 200 characters, a language of pt-BR or en, a currency of BRL or USD.
 */
import { z } from 'zod';
import { languages } from '@/lib/i18n';
import type { Currency, Language } from '@/lib/types';
import { newPasswordField, requiredTextField } from '@/lib/validation';

export const currencies = ['BRL', 'USD'] as const satisfies readonly Currency[];

export const accountFormSchema = z.object({
  name: requiredTextField('account.nameRequired', 200),
  language: z.custom<Language>((value) => languages.some((language) => language === value)),
  currency: z.enum(currencies),
});
export type AccountFormValues = z.input<typeof accountFormSchema>;

/**
 * The password change, checked as `change_password` checks it: the current password given, a new
 * one of 8 to 256 characters, typed twice alike (the confirmation never leaves the browser).
 */
export const passwordFormSchema = z
  .object({
    current_password: z.string().min(1, 'account.password.currentRequired'),
    new_password: newPasswordField,
    confirm: z.string(),
  })
  .refine((values) => values.confirm === values.new_password, {
    path: ['confirm'],
    message: 'account.password.mismatch',
  });
export type PasswordFormValues = z.input<typeof passwordFormSchema>;
