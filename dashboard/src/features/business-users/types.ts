/** Users of the caller's business (GET /api/business/users) and the body that saves one, from the API's document. */
export type { BusinessUser, BusinessUserPayload, Permissions } from '@/lib/types';

/** The access level select (spec §9). */
export const ACCESS_LEVELS = ['admin', 'all_projects', 'projects_whitelist', 'projects_blacklist'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];
