/**
 * The analytics screen against the real control plane and edge (issue 45): an owner makes a
 * site from the seeded bakery template and publishes it; visitors (distinct phones and
 * computers, from Google, Instagram and typed addresses), a crawler and a mistyped address reach
 * the edge; the owner opens Estatísticas in Chromium and reads the counts the edge made, at
 * 1440 px and at a phone's 390 px.
 *
 * With ANALYTICS_SCREEN set (`ANALYTICS_SCREEN=../docs/screens/analytics/live.png`), the
 * screen is saved there: docs/screens/README.md says how that picture is made.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiGet, edgeRequest, publishBakery, useBrowser } from './support';

const EDGE_WAIT_MS = 15_000;

const phone = (n: number) =>
  `Mozilla/5.0 (iPhone; CPU iPhone OS 17_${n} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1`;
const desktop = (n: number) =>
  `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.${n}.0 Safari/537.36`;

describe('the owner sees who visited', () => {
  const session = useBrowser();

  it('counts people apart from bots and shows them on the Estatísticas screen', async () => {
    const owner = await session.registered('stats', { viewport: { width: 1440, height: 900 } });
    const { id, slug } = await publishBakery(owner, 'Padaria Grão Dourado');
    const crawler = {
      'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    };
    const deadline = Date.now() + EDGE_WAIT_MS;
    while ((await edgeRequest(slug, 'GET', '/', undefined, crawler)).status !== 200) {
      if (Date.now() > deadline) throw new Error('the site never went live');
      await new Promise((r) => setTimeout(r, 100));
    }

    // Six people on phones from Instagram, four on computers from Google, two typed it in.
    const people = [
      ...Array.from({ length: 6 }, (_, n) => ({ ua: phone(n), referer: 'https://l.instagram.com/' })),
      ...Array.from({ length: 4 }, (_, n) => ({ ua: desktop(n), referer: 'https://www.google.com/' })),
      ...Array.from({ length: 2 }, (_, n) => ({ ua: desktop(10 + n), referer: undefined })),
    ];
    for (const person of people) {
      const headers: Record<string, string> = {
        'user-agent': person.ua,
        'accept-language': 'pt-BR,pt;q=0.9',
      };
      if (person.referer) headers.referer = person.referer;
      expect((await edgeRequest(slug, 'GET', '/', undefined, headers)).status).toBe(200);
      expect((await edgeRequest(slug, 'GET', '/produtos', undefined, headers)).status).toBe(200);
    }
    expect((await edgeRequest(slug, 'GET', '/cardapio', undefined, { 'user-agent': phone(0) })).status).toBe(
      404,
    );
    const peopleViews = people.length * 2;

    // The edge writes its counts every half second here (global-setup): wait for them.
    type Report = { views: number; visitors: number; bots: number };
    const until = Date.now() + EDGE_WAIT_MS;
    let report = await apiGet<Report>(owner, `/api/projects/${id}/analytics`);
    while (report.views < peopleViews && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 250));
      report = await apiGet<Report>(owner, `/api/projects/${id}/analytics`);
    }
    expect([report.views, report.visitors]).toEqual([peopleViews, people.length]);
    expect(report.bots).toBeGreaterThanOrEqual(1);

    const page = await owner.newPage();
    await page.goto(`/project/${id}/analytics`);
    const figures = page.locator('main');
    // The heading shows at once; the figures when the report has come.
    await expect.poll(() => figures.textContent(), { timeout: 15_000 }).toContain('instagram.com');
    const text = (await figures.textContent()) ?? '';
    expect(text).toContain('Estatísticas');
    expect(text).toContain('google.com');
    expect(text).toContain('/cardapio');
    expect(await page.locator('canvas').count()).toBeGreaterThan(0);
    const out = process.env.ANALYTICS_SCREEN;
    if (out) await page.screenshot({ path: resolve(process.cwd(), out), fullPage: true });

    // A phone's width: nothing scrolls the page sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(200);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
