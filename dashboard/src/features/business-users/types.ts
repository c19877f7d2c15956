import type { User } from '@/lib/types';

/** One project permission: all projects, or a list of project ids let in or kept out (spec §3). */
export type Permissions = User['permissions'];

/** A user of the caller's business (GET /api/business/users). */
export interface BusinessUser {
  id: number;
  name: string;
  email: string;
  is_business_admin: boolean;
  permissions: Permissions;
  created_at?: string;
}

/** Body of POST /api/business/users[/{id}]; `password` is left out to keep the current one. */
export interface BusinessUserPayload {
  name: string;
  email: string;
  password?: string;
  is_business_admin: boolean;
  permissions: Permissions;
}

/** The access level select (spec §9). */
export const ACCESS_LEVELS = ['admin', 'all_projects', 'projects_whitelist', 'projects_blacklist'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];
