import { describe, expect, it } from 'vitest';
import { fieldErrors } from '@/lib/validation';
import { loginSchema, newPasswordSchema, registerSchema } from './schemas';

describe('auth schemas', () => {
  it('sign-in needs a valid e-mail and a password', () => {
    const result = loginSchema.safeParse({ email: 'ana@', password: '' });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(fieldErrors(result.error)).toEqual({
        email: 'validation.emailInvalid',
        password: 'validation.passwordRequired',
      });
    }
    expect(loginSchema.parse({ email: ' ana@example.com ', password: 'x' }).email).toBe('ana@example.com');
  });

  it('a new password has 8 to 256 characters, as the server asks', () => {
    const error = (password: string) => newPasswordSchema.safeParse({ password }).error?.issues[0]?.message;
    expect(error('')).toBe('validation.passwordRequired');
    expect(error('1234567')).toBe('forms.validation.passwordTooShort');
    expect(error('12345678')).toBeUndefined();
    expect(error('a'.repeat(257))).toBe('forms.validation.passwordTooLong');
    // Characters, not bytes, count toward the minimum: eight accented letters are enough.
    expect(error('áéíóúãõç')).toBeUndefined();
  });

  it('sign-up needs a name', () => {
    const result = registerSchema.safeParse({ name: ' ', email: 'ana@example.com', password: '12345678' });
    expect(result.success ? {} : fieldErrors(result.error)).toEqual({ name: 'validation.userNameRequired' });
  });
});
