/**
 * The page editor on the laptops owners use, against the real control plane (global-setup.ts):
 * a site made from the bakery template opens in the editor from "Editar projeto" (the home page)
 * and, at the default zoom, its canvas fits a 1280×800 and a 1440×900 window whole: nothing
 * scrolls sideways and the frame is fully in view between the panels (support.ts,
 * `expectCanvasFitsWindow`). The same check against a fake API is in editor-canvas.browser.ts.
 */
import { describe, expect, it } from 'vitest';
import { apiGet, apiPost, byTestId, expectCanvasFitsWindow, snapshot, useBrowser } from './support';

const session = useBrowser();

describe('the editor on a laptop', () => {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 1440, height: 900 },
  ]) {
    it(`opens from "Editar projeto" and fits a ${viewport.width}x${viewport.height} window`, async () => {
      const context = await session.registered('editor-fit', { viewport });
      const templates = await apiGet<{ id: number; name: string }[]>(context, '/api/templates');
      const bakery = templates.find((template) => /padaria/i.test(template.name)) ?? templates[0];
      if (!bakery) throw new Error('the seed has no templates');
      const made = await apiPost<{ id: number }>(context, `/api/templates/use/${bakery.id}`, {
        name: 'Doces da Bruna',
      });
      const project = await apiGet<{ pages: { id: number; slug: string; is_home: boolean }[] }>(
        context,
        `/api/projects/${made.id}`,
      );
      const home = project.pages.find((p) => p.is_home || p.slug === '/');
      const page = await context.newPage();
      await page.goto(`/project/${made.id}`);
      const edit = page.locator(byTestId('edit-project-link'));
      expect(await edit.getAttribute('href')).toBe(`/project/${made.id}/${home?.id}`);
      await edit.click();
      await page.waitForURL((url) => url.pathname === `/project/${made.id}/${home?.id}`);
      const iframe = await page.waitForSelector(byTestId('canvas-iframe'));
      await (await iframe.contentFrame())?.waitForSelector('[data-vt-uid]');
      await expectCanvasFitsWindow(page, viewport.width);
      await snapshot(page, `editor-${viewport.width}`);
      expect(await page.locator(byTestId('editor-small-screen')).isVisible()).toBe(false);
      await context.close();
    });
  }
});
