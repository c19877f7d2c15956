/**
 * The analytics screen in chromium, against a fake API (page.route), as jsdom can't show it: uPlot
 * really draws the chart (a canvas the width of its card, the deploy markers on it), axe-core
 * checks the screen with the browser's colours and layout (no serious or critical violation),
 * no text of the other language nor a raw key shows (src/testing/language-check.ts),
 * and at 390×844 nothing scrolls the page sideways (`scrollWidth <= innerWidth`): the cards go to
 * one column and every table fits its card (labels wrap, a phone leaves out the pages' visitors,
 * a campaign's source and medium sit under its name). With `ANALYTICS_SCREENS=dir` it
 * saves the viewports (pt-BR and English at 1440×900, pt-BR at 390×844) there, and each whole page.
 */
import { join } from 'node:path';
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { AnalyticsReport } from '@/features/analytics/api/types';
import { projectFixture, userFixture } from '@/testing/fixtures';
import { languageFindings, type ScreenLanguage } from '@/testing/language-check';
import { axeViolations, byTestId, fulfillJson, serious, usePreview } from './support';

const screensDir = process.env.ANALYTICS_SCREENS;

const served = usePreview();

const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);

/** Thirty days of a small bakery's site, up to today (UTC), with two deploys and a few 404s. */
function report(): AnalyticsReport {
  const days = Array.from({ length: 30 }, (_, index) => {
    const visitors = 20 + Math.round(15 * Math.sin(index / 3)) + index;
    return { date: day(index - 29), views: visitors * 3, visitors };
  });
  return {
    views: days.reduce((sum, entry) => sum + entry.views, 0),
    visitors: days.reduce((sum, entry) => sum + entry.visitors, 0),
    bots: 412,
    now: 4,
    enabled: true,
    days,
    pages: [
      { path: '/', views: 1830, visitors: 702 },
      { path: '/cardapio', views: 960, visitors: 433 },
      { path: '/cardapio/bolo-de-cenoura-com-cobertura-de-chocolate-meio-amargo', views: 311, visitors: 190 },
      { path: '/contato', views: 140, visitors: 98 },
    ],
    referrers: [
      { source: 'google.com', visitors: 520 },
      { source: 'direct', visitors: 301 },
      { source: 'instagram.com', visitors: 188 },
    ],
    devices: [
      { device: 'mobile', visitors: 790 },
      { device: 'desktop', visitors: 201 },
      { device: 'tablet', visitors: 18 },
    ],
    languages: [
      { language: 'pt-BR', visitors: 940 },
      { language: 'en-US', visitors: 52 },
      { language: 'es', visitors: 17 },
    ],
    campaigns: [
      { source: 'instagram', medium: 'social', campaign: 'natal-2026', visitors: 96 },
      { source: 'newsletter', medium: 'email', campaign: 'black-friday', visitors: 41 },
    ],
    conversions: { forms: 12, whatsapp: 57, phone: 9, email: 3 },
    not_found: [
      { path: '/promocao-de-natal-antiga-que-ja-acabou', views: 23 },
      { path: '/wp-login.php', views: 8 },
    ],
    deploys: [
      { id: 1, at: `${day(-20)}T14:30:00Z` },
      { id: 2, at: `${day(-5)}T09:00:00Z` },
    ],
  };
}

function answer(route: Route, language: 'pt-BR' | 'en') {
  const request = route.request();
  const url = new URL(request.url());
  const json = (body: unknown, status = 200) => fulfillJson(route, body, status);
  switch (`${request.method()} ${url.pathname}`) {
    case 'GET /api/user':
      return json(userFixture({ language }));
    case 'GET /api/projects/7':
      return json(projectFixture(7, { name: 'Padaria da Ana', domain: null }));
    case 'GET /api/projects/7/analytics':
      return json(report());
    default:
      return json({ error: 'test', message: `unexpected ${request.method()} ${url.pathname}` }, 599);
  }
}

async function open(width: number, height: number, language: 'pt-BR' | 'en' = 'pt-BR'): Promise<Page> {
  const context = await served.browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  await page.route('**/api/**', (route) => answer(route, language));
  // A browser that had a session: the screens ask for the user at once.
  await page.addInitScript(() => window.localStorage.setItem('vitrine.signedIn', '1'));
  await page.goto(`${served.baseURL}project/7/analytics`);
  await page.waitForSelector(`${byTestId('analytics-chart')} canvas`);
  // Fonts and the chart's resize settle before anything is measured.
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(200);
  return page;
}

/** The site's own words on the screen (its paths, sources, campaigns), left out of the language check. */
function siteContent(): string[] {
  const shown = report();
  return [
    'Padaria da Ana',
    'ana@example.com',
    ...shown.pages.map((page) => page.path),
    ...shown.not_found.map((missing) => missing.path),
    ...shown.referrers.map((referrer) => referrer.source),
    ...shown.campaigns.flatMap(({ source, medium, campaign }) => [source, medium, campaign]),
  ];
}

/** Text only the other language's catalogue holds, and raw keys, on the screen (none expected). */
async function languageProblems(page: Page, language: ScreenLanguage): Promise<string[]> {
  const text = await page.evaluate(() => document.body.innerText);
  return languageFindings(text, language, siteContent()).map((finding) => `${finding.kind}: ${finding.text}`);
}

/** The viewport, as docs/screens keeps each screen, and the whole page beside it. */
async function save(page: Page, name: string) {
  if (!screensDir) return;
  await page.screenshot({ path: join(screensDir, `${name}.png`) });
  await page.screenshot({ path: join(screensDir, `${name}-full.png`), fullPage: true });
}

describe('analytics screen in chromium', () => {
  it('draws the chart across its card, with the deploy markers, and passes axe', async () => {
    const page = await open(1440, 900);
    const { canvasWidth, cardWidth, marked } = await page.evaluate(() => {
      const figure = document.querySelector('[data-testid="analytics-chart"]') as HTMLElement;
      const canvas = figure.querySelector('canvas') as HTMLCanvasElement;
      // The deploy markers' colour (--color-warning-text, #92400e) is drawn nowhere else.
      const pixels = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data ?? [];
      let marked = 0;
      for (let index = 0; index < pixels.length; index += 4)
        if (pixels[index] === 0x92 && pixels[index + 1] === 0x40 && pixels[index + 2] === 0x0e) marked += 1;
      return {
        canvasWidth: canvas.getBoundingClientRect().width,
        cardWidth: figure.getBoundingClientRect().width,
        marked,
      };
    });
    expect(canvasWidth).toBeGreaterThan(cardWidth - 2);
    expect(canvasWidth).toBeLessThanOrEqual(cardWidth + 1);
    expect(marked).toBeGreaterThan(100);
    expect(await page.textContent(byTestId('analytics-chart-description'))).toContain(
      'As linhas tracejadas marcam 2 publicações.',
    );
    await save(page, 'pt-BR-analytics');
    expect((await axeViolations(page)).filter(serious)).toEqual([]);
    expect(await languageProblems(page, 'pt-BR')).toEqual([]);
    await page.context().close();
  });

  it('fits a 390 px phone: no sideways scroll, each table within its card', async () => {
    const page = await open(390, 844);
    const fit = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      canvas:
        document.querySelector('[data-testid="analytics-chart"] canvas')?.getBoundingClientRect().right ?? 0,
      tables: [...document.querySelectorAll('.data-table')].map((table) => {
        const wrapper = table.parentElement as HTMLElement;
        return {
          table: table.getAttribute('data-testid'),
          inCard: wrapper.classList.contains('table-scroll') && wrapper.closest('.card') !== null,
          right: wrapper.getBoundingClientRect().right,
          // Labels wrap: the table fits its card, with nothing to scroll to.
          fits: wrapper.scrollWidth <= wrapper.clientWidth,
        };
      }),
    }));
    expect(fit.scrollWidth).toBeLessThanOrEqual(fit.innerWidth);
    expect(fit.canvas).toBeLessThanOrEqual(fit.innerWidth);
    expect(fit.tables.length).toBe(6);
    for (const table of fit.tables) {
      expect(table).toMatchObject({ table: table.table, inCard: true, fits: true });
      expect(table.right).toBeLessThanOrEqual(fit.innerWidth);
    }
    await save(page, 'pt-BR-analytics-phone');
    await page.context().close();
  });

  it('speaks English to an English-speaking owner', async () => {
    const page = await open(1440, 900, 'en');
    expect(await page.textContent('h1')).toBe('Analytics');
    expect(await page.textContent(byTestId('analytics-create-redirect'))).toBe('Create redirect');
    expect(await languageProblems(page, 'en')).toEqual([]);
    await save(page, 'en-analytics');
    await page.context().close();
  });
});
