/**
 * The business user form (spec §5): name and email required; the password is required when
 * creating and optional when editing (empty keeps the current one). Messages are i18n keys.
 */
import { z } from 'zod';
import { isValidEmail } from '@/lib/validation';
import type { BusinessUserPayload } from '@/features/business-users/types';
import { ACCESS_LEVELS } from '@/features/business-users/types';
import { accessToPayload } from './access-level';

export function userFormSchema(isNew: boolean) {
  return z
    .object({
      name: z.string().trim().min(1, 'validation.userNameRequired'),
      email: z
        .string()
        .trim()
        .min(1, 'validation.emailRequired')
        .refine((value) => value.length === 0 || isValidEmail(value), 'validation.emailInvalid'),
      password: z.string(),
      level: z.enum(ACCESS_LEVELS),
      projectIds: z.array(z.number().int()),
    })
    .superRefine((value, ctx) => {
      if (isNew && value.password.length === 0) {
        ctx.addIssue({ code: 'custom', path: ['password'], message: 'validation.passwordRequired' });
      }
    });
}

export type UserFormValues = z.infer<ReturnType<typeof userFormSchema>>;

/** The checked form → the request body; an empty password is left out (kept on edit). */
export function toPayload(values: UserFormValues): BusinessUserPayload {
  const body: BusinessUserPayload = {
    name: values.name.trim(),
    email: values.email.trim(),
    ...accessToPayload(values.level, values.projectIds),
  };
  if (values.password.length > 0) body.password = values.password;
  return body;
}
