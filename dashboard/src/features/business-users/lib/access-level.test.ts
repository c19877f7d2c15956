import { describe, expect, it } from 'vitest';
import type { AccessLevel } from '@/features/business-users/types';
import { accessFromUser, accessToPayload, hasProjectList } from './access-level';

describe('access level mapping (spec §4)', () => {
  const cases: { level: AccessLevel; ids: number[]; fields: ReturnType<typeof accessToPayload> }[] = [
    { level: 'admin', ids: [], fields: { is_business_admin: true, permissions: {} } },
    {
      level: 'all_projects',
      ids: [],
      fields: { is_business_admin: false, permissions: { all_projects: true } },
    },
    {
      level: 'projects_whitelist',
      ids: [3, 5],
      fields: { is_business_admin: false, permissions: { projects_whitelist: [3, 5] } },
    },
    {
      level: 'projects_blacklist',
      ids: [7],
      fields: { is_business_admin: false, permissions: { projects_blacklist: [7] } },
    },
  ];

  it.each(cases)('$level → flags and permissions, and back', ({ level, ids, fields }) => {
    expect(accessToPayload(level, ids)).toEqual(fields);
    expect(accessFromUser(fields)).toEqual({ level, projectIds: ids });
  });

  it('drops checked projects for admin and all projects', () => {
    expect(accessToPayload('admin', [1, 2])).toEqual({ is_business_admin: true, permissions: {} });
    expect(accessToPayload('all_projects', [1, 2])).toEqual({
      is_business_admin: false,
      permissions: { all_projects: true },
    });
  });

  it('reads a business admin as admin whatever the permissions, and no permission as all projects', () => {
    expect(accessFromUser({ is_business_admin: true, permissions: { projects_whitelist: [1] } })).toEqual({
      level: 'admin',
      projectIds: [],
    });
    expect(accessFromUser({ is_business_admin: false, permissions: {} })).toEqual({
      level: 'all_projects',
      projectIds: [],
    });
  });

  it('asks for a project checklist only for a whitelist or blacklist', () => {
    expect(hasProjectList('projects_whitelist')).toBe(true);
    expect(hasProjectList('projects_blacklist')).toBe(true);
    expect(hasProjectList('admin')).toBe(false);
    expect(hasProjectList('all_projects')).toBe(false);
  });
});
