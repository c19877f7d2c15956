import { describe, expect, it } from 'vitest';
import { fieldErrors } from '@/lib/validation';
import { toPayload, userFormSchema, type UserFormValues } from './user-form';

const values = (overrides: Partial<UserFormValues> = {}): UserFormValues => ({
  name: 'Bia',
  email: 'bia@example.com',
  password: '',
  level: 'all_projects',
  projectIds: [],
  ...overrides,
});

const errors = (isNew: boolean, input: UserFormValues) => {
  const parsed = userFormSchema(isNew).safeParse(input);
  return parsed.success ? {} : fieldErrors(parsed.error);
};

describe('user form validation (spec §5)', () => {
  it('requires name and email', () => {
    expect(errors(false, values({ name: '  ', email: '' }))).toEqual({
      name: 'validation.userNameRequired',
      email: 'validation.emailRequired',
    });
  });

  it('rejects a malformed email', () => {
    expect(errors(false, values({ email: 'bia@' }))).toEqual({ email: 'validation.emailInvalid' });
  });

  it('requires a password when creating, not when editing', () => {
    expect(errors(true, values())).toEqual({ password: 'validation.passwordRequired' });
    expect(errors(false, values())).toEqual({});
    expect(errors(true, values({ password: 'segredo1' }))).toEqual({});
  });
});

describe('toPayload', () => {
  it('trims name and email, maps the access level and leaves out an empty password', () => {
    expect(
      toPayload(
        values({ name: ' Bia ', email: ' bia@example.com ', level: 'projects_whitelist', projectIds: [4] }),
      ),
    ).toEqual({
      name: 'Bia',
      email: 'bia@example.com',
      is_business_admin: false,
      permissions: { projects_whitelist: [4] },
    });
  });

  it('sends the password when one is typed', () => {
    expect(toPayload(values({ password: 'segredo1', level: 'admin' }))).toEqual({
      name: 'Bia',
      email: 'bia@example.com',
      password: 'segredo1',
      is_business_admin: true,
      permissions: {},
    });
  });
});
