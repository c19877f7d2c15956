/**
 * The sign-in page's resolvers, with zod and the schemas: loaded by `lazyResolver` when a form
 * is first used, not with the page (see LoginCard and RegisterCard).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { loginSchema, registerSchema } from './schemas';

export const loginResolver = zodResolver(loginSchema);
export const registerResolver = zodResolver(registerSchema);
