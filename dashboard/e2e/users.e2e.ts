/**
 * Business users and 'login as' end to end, against the real control plane: a business
 * administrator creates a member who may see only one of the business's projects (the
 * server enforces it: the member's dashboard lists that one), and the platform administrator
 * signs in as a user from /erp/users, sees the banner, and comes back to their own session.
 *
 * The business administrator is made by global setup (`vitrine-control business`); the
 * administrator is the one the seed creates.
 */
import { describe, expect, inject, it } from 'vitest';
import {
  adminCredentials,
  baseURL,
  businessCredentials,
  byTestId,
  createProjectViaApi,
  listedProjectIds,
  newAccount,
  pathIs,
  registerViaApi,
  useBrowser,
  waitForProjectCount,
} from './support';

const session = useBrowser();

describe('business users and login as', () => {
  it('a business administrator creates a whitelist member, who sees only the listed project', async () => {
    const admin = await session.signedIn(businessCredentials());
    const listed = await createProjectViaApi(admin, 'Cliente visível');
    const hidden = await createProjectViaApi(admin, 'Cliente oculto');
    const member = newAccount('member');

    const page = await admin.newPage();
    await page.goto('/users');
    await page.waitForSelector(byTestId('business-users'));
    await page.click(byTestId('business-user-new'));
    await page.waitForURL(pathIs('/users/new'));
    await page.fill(byTestId('user-name'), member.name);
    await page.fill(byTestId('user-email'), member.email);
    await page.fill(byTestId('user-password'), member.password);
    await page.selectOption(byTestId('user-level'), 'projects_whitelist');
    await page.check(byTestId(`user-project-${listed}`));
    await page.click(byTestId('user-form-save'));
    await page.waitForURL(pathIs('/users'));
    await expect.poll(() => page.textContent(byTestId('business-users'))).toContain(member.email);

    const memberContext = await session.signedIn(member);
    const memberPage = await memberContext.newPage();
    await memberPage.goto('/');
    await waitForProjectCount(memberPage, 1);
    expect(await listedProjectIds(memberPage)).toEqual([listed]);
    const refused = await memberContext.request.get(`${baseURL}/api/projects/${hidden}`);
    expect(refused.status()).toBe(404);
    // Members are not business administrators.
    await memberPage.goto('/users');
    await memberPage.waitForSelector(byTestId('forbidden'));
  });

  it('an administrator signs in as a user from /erp/users and comes back', async () => {
    const someone = newAccount('someone');
    const theirs = await session.context();
    await registerViaApi(theirs, someone);
    const theirProject = await createProjectViaApi(theirs, 'Projeto de alguém');

    const admin = await session.signedIn(adminCredentials());
    const page = await admin.newPage();
    await page.goto('/erp/users');
    await page.waitForSelector(byTestId('user-admin'));
    const users = (await (await admin.request.get(`${baseURL}/api/users`)).json()) as {
      id: number;
      email: string;
    }[];
    const target = users.find((u) => u.email === someone.email);
    expect(target).toBeDefined();
    await page.click(`${byTestId(`user-admin-row-${target!.id}`)} ${byTestId('user-admin-login-as')}`);
    await page.waitForURL(pathIs('/'));
    await page.waitForSelector(byTestId('impersonation-banner'));
    expect(await page.textContent(byTestId('impersonation-banner'))).toContain(someone.email);
    await waitForProjectCount(page, 1);
    expect(await listedProjectIds(page)).toEqual([theirProject]);

    await page.click(byTestId('impersonation-back'));
    await page.waitForURL(pathIs('/erp/users'));
    await page.waitForSelector(byTestId('user-admin'));
    expect(await page.$(byTestId('impersonation-banner'))).toBeNull();
    const me = (await (await admin.request.get(`${baseURL}/api/user`)).json()) as {
      email: string;
      is_admin: boolean;
    };
    expect(me).toMatchObject({ email: inject('adminEmail'), is_admin: true });
  });
});
