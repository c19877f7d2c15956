/**
 * Access level mapping (spec §4): admin gives is_business_admin true and no project permissions;
 * all_projects, whitelist and blacklist give is_business_admin false and the matching permission.
 */
import type { AccessLevel, Permissions } from '@/features/business-users/types';

export interface AccessFields {
  is_business_admin: boolean;
  permissions: Permissions;
}

/** The select value and the checked projects → the user's flags and permissions. */
export function accessToPayload(level: AccessLevel, projectIds: number[]): AccessFields {
  switch (level) {
    case 'admin':
      return { is_business_admin: true, permissions: {} };
    case 'all_projects':
      return { is_business_admin: false, permissions: { all_projects: true } };
    case 'projects_whitelist':
      return { is_business_admin: false, permissions: { projects_whitelist: [...projectIds] } };
    case 'projects_blacklist':
      return { is_business_admin: false, permissions: { projects_blacklist: [...projectIds] } };
  }
}

/** A loaded user → the select value and its checked projects (a user with no permission sees all projects). */
export function accessFromUser(user: AccessFields): { level: AccessLevel; projectIds: number[] } {
  if (user.is_business_admin) return { level: 'admin', projectIds: [] };
  const { permissions } = user;
  if (permissions.projects_whitelist)
    return { level: 'projects_whitelist', projectIds: [...permissions.projects_whitelist] };
  if (permissions.projects_blacklist)
    return { level: 'projects_blacklist', projectIds: [...permissions.projects_blacklist] };
  return { level: 'all_projects', projectIds: [] };
}

/** Whether the level asks for a project checklist. */
export function hasProjectList(level: AccessLevel): boolean {
  return level === 'projects_whitelist' || level === 'projects_blacklist';
}
