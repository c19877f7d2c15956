/**
 * Lighthouse on the seeded templates as published (issue 44): an owner makes a site from each
 * template under a name of their own, publishes it, and Lighthouse 12.2.3 (mobile, simulated
 * slow 4G, Debian's Chromium) audits its home page as a visitor gets it from the edge. The
 * budget is 100 in Performance, Accessibility, Best Practices and SEO, and no layout shift.
 *
 * Accessibility, Best Practices and SEO are properties of the page and hold in every run.
 * Performance is simulated from the run's own trace, so a busy machine (CI's two cores) lowers
 * it: a page below the budget is audited again, up to three runs, and judged by its best, as
 * Lighthouse CI's `optimistic` aggregation does. A page that is really slow is slow in all three.
 * The web fonts the pages name cannot be fetched here beyond the fake provider's two families,
 * as in every run of this suite.
 *
 * `LIGHTHOUSE_EVERY_PAGE=1` (benches/lighthouse.sh) audits every page the site's sitemap lists
 * instead of the home page alone, and writes a Markdown table of the scores to
 * `LIGHTHOUSE_TABLE` (default: lighthouse-scores.md in the system's temporary folder).
 * `LIGHTHOUSE_REPORTS` names a folder to keep each page's JSON report in.
 */
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { failures, metrics, runLighthouse, scores } from '../scripts/lighthouse-run.mjs';
import { apiGet, apiPost, edgeRequest, useBrowser } from './support';

const edgeURL = inject('edgeURL');
const platformDomain = inject('platformDomain');
const EDGE_WAIT_MS = 15_000;
const EVERY_PAGE = process.env.LIGHTHOUSE_EVERY_PAGE === '1';
/** One Lighthouse run takes some 20 s, up to three a page; every page of a template, minutes. */
const AUDIT_TIMEOUT_MS = EVERY_PAGE ? 1_800_000 : 420_000;
const BUDGET = { performance: 100, accessibility: 100, 'best-practices': 100, seo: 100 };
const PERFORMANCE_RUNS = 3;

/** The owners' own names, by the template's category: not the templates'. */
const OWNER_NAMES: Record<string, string> = {
  Negócios: 'Doceria Ipê Amarelo',
  Portfólio: 'Estúdio Jabuticaba',
  Blog: 'Caderno da Conceição',
};

interface TemplateView {
  id: number;
  name: string;
  category: string;
}

const session = useBrowser();
const rows: string[] = [];

async function waitForSite(slug: string): Promise<void> {
  const deadline = Date.now() + EDGE_WAIT_MS;
  while ((await edgeRequest(slug, 'GET', '/')).status !== 200) {
    if (Date.now() > deadline) throw new Error(`the edge never served ${slug} in ${EDGE_WAIT_MS} ms`);
    await new Promise((done) => setTimeout(done, 250));
  }
}

/** The paths to audit: the home page, or every page of the sitemap. */
async function pathsOf(slug: string): Promise<string[]> {
  if (!EVERY_PAGE) return ['/'];
  const sitemap = await edgeRequest(slug, 'GET', '/sitemap.xml');
  expect(sitemap.status, 'the site has a sitemap').toBe(200);
  const paths = [...sitemap.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? '/').pathname);
  expect(paths.length, 'the sitemap lists pages').toBeGreaterThan(0);
  return paths;
}

async function publishFromTemplate(template: TemplateView): Promise<string> {
  const context = await session.registered(`lighthouse-${template.id}`);
  const made = await apiPost<{ id: number }>(context, `/api/templates/use/${template.id}`, {
    name: OWNER_NAMES[template.category] ?? `Loja de ${template.name}`,
  });
  const project = await apiGet<{ slug: string }>(context, `/api/projects/${made.id}`);
  await apiPost(context, `/api/publish_v2/${made.id}`, { project_id: made.id });
  await waitForSite(project.slug);
  await context.close();
  return project.slug;
}

describe('the seeded templates as published, audited by Lighthouse', () => {
  it(
    'score 100 in every category with no layout shift',
    async () => {
      const admin = await session.registered('lighthouse-list');
      const templates = await apiGet<TemplateView[]>(admin, '/api/templates');
      await admin.close();
      expect(templates.length, 'the seed has templates').toBeGreaterThanOrEqual(3);
      const port = new URL(edgeURL).port;
      const missed: string[] = [];
      for (const template of templates) {
        const slug = await publishFromTemplate(template);
        for (const path of await pathsOf(slug)) {
          const url = `http://${slug}.${platformDomain}:${port}${path}`;
          const runs = [await runLighthouse(url)];
          const performance = () => Math.max(...runs.map((r) => scores(r).performance ?? 0));
          while (runs.length < PERFORMANCE_RUNS && performance() < BUDGET.performance) {
            runs.push(await runLighthouse(url));
          }
          // The best run's Performance; the first run's other categories (the page's own, the
          // same in every run); the largest layout shift of any run.
          const report = runs.find((r) => scores(r).performance === performance()) ?? runs[0]!;
          const got: Record<string, number> = { ...scores(runs[0]!), performance: performance() };
          const shift = Math.max(...runs.map((r) => r.audits['cumulative-layout-shift']?.numericValue ?? 1));
          const keep = process.env.LIGHTHOUSE_REPORTS;
          if (keep) {
            const name = `${slug}${path.replaceAll('/', '_')}.json`;
            await writeFile(join(keep, name), JSON.stringify(runs[0]));
          }
          const where = `${template.name} ${path}`;
          rows.push(
            `| ${template.name} | \`${path}\` | ${got.performance} | ${got.accessibility} | ${got['best-practices']} | ${got.seo} | ${metrics(report)} |`,
          );
          const below = Object.entries(BUDGET).filter(([id, least]) => (got[id] ?? 0) < least);
          if (below.length > 0 || shift > 0) {
            missed.push(`${where}: ${JSON.stringify(got)}, CLS ${shift}\n  ${failures(report).join('\n  ')}`);
          }
        }
      }
      if (EVERY_PAGE) {
        const table = [
          `Lighthouse 12.2.3, mobile, simulated slow 4G, ${new Date().toISOString()}`,
          '',
          '| template | page | Performance | Accessibility | Best Practices | SEO | metrics |',
          '|---|---|---|---|---|---|---|',
          ...rows,
        ].join('\n');
        await writeFile(process.env.LIGHTHOUSE_TABLE ?? join(tmpdir(), 'lighthouse-scores.md'), `${table}\n`);
      }
      expect(missed, `pages below the budget:\n${missed.join('\n')}`).toEqual([]);
    },
    AUDIT_TIMEOUT_MS,
  );
});
