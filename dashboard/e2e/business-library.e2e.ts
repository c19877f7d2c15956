/**
 * A business's own block library end to end, against the real control plane (issue 20, "The
 * shared library belongs to the platform"): the business administrator (made by global setup)
 * saves a block from the editor's code window to the business's library, where the global
 * library is not offered; a member of the business finds it in the editor beside My Blocks; an
 * account outside the business never sees it; the administrator deletes it from
 * /business/blocks.
 */
import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  baseURL,
  businessCredentials,
  byTestId,
  createProjectViaApi,
  newAccount,
  useBrowser,
} from './support';

const session = useBrowser();

/** Names in the caller's business's library, through the API (404 outside a business). */
async function businessBlockNames(context: BrowserContext): Promise<string[] | number> {
  const response = await context.request.get(`${baseURL}/api/business/blocks`);
  if (!response.ok()) return response.status();
  return ((await response.json()) as { name: string }[]).map((block) => block.name);
}

/** Opens the editor on a new project's home page of the context's account. */
async function openEditor(context: BrowserContext, name: string): Promise<Page> {
  const projectId = await createProjectViaApi(context, name);
  const project = (await (await context.request.get(`${baseURL}/api/projects/${projectId}`)).json()) as {
    pages: { id: number }[];
  };
  const home = project.pages[0];
  if (!home) throw new Error('a new project has a home page');
  const page = await context.newPage();
  await page.goto(`/project/${projectId}/${home.id}`);
  await page.waitForSelector(byTestId('block-search'));
  return page;
}

describe("a business's own block library", () => {
  it('is written by its administrator from the editor, seen by its members beside My Blocks, and by nobody else', async () => {
    const id = randomUUID().slice(0, 8);
    const blockName = `Bloco da agência ${id}`;
    const admin = await session.signedIn(businessCredentials());
    const member = newAccount('library-member');
    const created = await admin.request.post(`${baseURL}/api/business/users`, {
      data: {
        name: member.name,
        email: member.email,
        password: member.password,
        is_business_admin: false,
        permissions: { all_projects: true },
      },
    });
    expect(created.status(), await created.text()).toBe(201);

    // The administrator inserts a block, opens its code and saves it to the business's library.
    const editor = await openEditor(admin, `Biblioteca ${id}`);
    await editor.click(`${byTestId('category-elements')} ${byTestId('library-add')}`);
    await editor.click(byTestId('block-code'));
    await editor.waitForSelector(byTestId('source-business'));
    expect(await editor.$(byTestId('source-library'))).toBeNull();
    await editor.fill(byTestId('biz-block-name'), blockName);
    await editor.click(byTestId('biz-block-save'));
    await expect.poll(() => businessBlockNames(admin)).toEqual([blockName]);

    // A member of the business finds it in the editor, beside My Blocks.
    const memberContext = await session.signedIn(member);
    const memberEditor = await openEditor(memberContext, `Site do membro ${id}`);
    await memberEditor.click(`${byTestId('category-business-blocks')} ${byTestId('library-category')}`);
    await memberEditor.waitForSelector(
      `${byTestId('category-business-blocks')} ${byTestId('library-block')}`,
    );
    expect(await memberEditor.textContent(byTestId('category-business-blocks'))).toContain(blockName);
    expect(
      await memberEditor.$(`${byTestId('category-business-blocks')} ${byTestId('business-block-delete')}`),
    ).toBeNull();

    // An account outside the business has no business library at all.
    const stranger = await session.registered('library-stranger');
    const strangerEditor = await openEditor(stranger, `Site de fora ${id}`);
    expect(await strangerEditor.$(byTestId('category-business-blocks'))).toBeNull();
    expect(await strangerEditor.content()).not.toContain(blockName);
    expect(await businessBlockNames(stranger)).toBe(404);

    // The administrator deletes it from the business's blocks screen, after confirming.
    const screen = await admin.newPage();
    await screen.goto('/business/blocks');
    await screen.waitForSelector(byTestId('business-library'));
    await screen.click(byTestId('business-block-delete'));
    await screen.click(byTestId('business-block-delete-confirm'));
    await screen.waitForSelector(byTestId('business-library-empty'));
    expect(await businessBlockNames(memberContext)).toEqual([]);
  });
});
