/**
 * The sign-in, sign-up and password forms, with the server's rules (shared/src/domain.rs:
 * `Email::parse`, `new_password`). Messages are i18n keys.
 */
import { z } from 'zod';
import { emailField, newPasswordField } from '@/lib/validation';

const trimmedEmail = z.string().trim().pipe(emailField);

export const loginSchema = z.object({
  email: trimmedEmail,
  password: z.string().min(1, 'validation.passwordRequired'),
});
export type LoginValues = z.input<typeof loginSchema>;
export type LoginOutput = z.output<typeof loginSchema>;

export const registerSchema = z.object({
  name: z.string().trim().min(1, 'validation.userNameRequired'),
  email: trimmedEmail,
  password: newPasswordField,
});
export type RegisterValues = z.input<typeof registerSchema>;
export type RegisterOutput = z.output<typeof registerSchema>;

export const forgotSchema = z.object({ email: trimmedEmail });
export type ForgotValues = z.input<typeof forgotSchema>;

export const newPasswordSchema = z.object({ password: newPasswordField });
export type NewPasswordValues = z.input<typeof newPasswordSchema>;
