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
 * A second test is an owner's gallery: twelve 4000×3000 phone photos of about 4 MB each, made at
 * test time (noise over a gradient, encoded by the browser's own JPEG encoder, so they do not
 * compress to nothing), uploaded, put on a page and published. The page must reach 95 in
 * Performance: what it sends a phone is the photos' small variants (`<picture>`, `srcset`,
 * `sizes`), the first with priority and the others lazily.
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
import type { BrowserContext } from 'playwright-core';
import { apiGet, apiPost, baseURL, createProjectViaApi, edgeRequest, useBrowser } from './support';

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

/** Writes the scores so far as a Markdown table (`LIGHTHOUSE_TABLE`). */
async function writeTable(): Promise<void> {
  const table = [
    `Lighthouse 12.2.3, mobile, simulated slow 4G, ${new Date().toISOString()}`,
    '',
    '| template | page | Performance | Accessibility | Best Practices | SEO | metrics |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
  await writeFile(process.env.LIGHTHOUSE_TABLE ?? join(tmpdir(), 'lighthouse-scores.md'), `${table}\n`);
}

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

/** Photos on the gallery page, their size, and its Performance budget. */
const GALLERY_PHOTOS = 12;
const PHOTO_WIDTH = 4000;
const PHOTO_HEIGHT = 3000;
const GALLERY_PERFORMANCE = 95;

/**
 * A `width`×`height` JPEG as a phone takes it, `seed` making each one its own (uploads are
 * content-addressed): a sky over warm ground with per-pixel noise, at quality 0.93, as a data
 * URL. Made by the browser's canvas, the only JPEG encoder at hand in the test.
 */
async function phonePhoto(context: BrowserContext, seed: number): Promise<string> {
  const page = await context.newPage();
  try {
    return await page.evaluate(
      ([width, height, start]) => {
        const canvas = document.createElement('canvas');
        canvas.width = width;
        canvas.height = height;
        const ctx = canvas.getContext('2d');
        if (!ctx) throw new Error('no 2D canvas');
        const image = ctx.createImageData(width, height);
        const px = image.data;
        let s = start | 1;
        for (let y = 0; y < height; y++) {
          for (let x = 0; x < width; x++) {
            s ^= s << 13;
            s ^= s >>> 17;
            s ^= s << 5;
            const noise = ((s >>> 0) % 25) - 12;
            const sky = y < height / 2;
            const at = (y * width + x) * 4;
            px[at] = (sky ? 90 + (x * 60) / width : 170) + noise;
            px[at + 1] = (sky ? 140 : 120 + (y * 40) / height) + noise;
            px[at + 2] = (sky ? 220 : 70) + noise;
            px[at + 3] = 255;
          }
        }
        ctx.putImageData(image, 0, 0);
        return canvas.toDataURL('image/jpeg', 0.93);
      },
      [PHOTO_WIDTH, PHOTO_HEIGHT, seed] as const,
    );
  } finally {
    await page.close();
  }
}

/** Uploads `content` (a data URL) as `name` into the project; answers its `/files/…` URL. */
async function upload(
  context: BrowserContext,
  userId: number,
  projectId: number,
  name: string,
  content: string,
) {
  const response = await context.request.post(`${baseURL}/api/upload`, {
    data: { name, content, prefix: [userId, projectId] },
    timeout: 120_000,
  });
  if (response.status() !== 201)
    throw new Error(`upload ${name}: ${response.status()} ${await response.text()}`);
  return (await response.text()).trim();
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
      if (EVERY_PAGE) await writeTable();
      expect(missed, `pages below the budget:\n${missed.join('\n')}`).toEqual([]);
    },
    AUDIT_TIMEOUT_MS,
  );

  // Each upload answers once its WebP and JPEG variants are made (about 2 s in the debug
  // build); the page is published at once, before the AVIF ones are made in the background,
  // as an owner who publishes straight after uploading gets it.
  it(
    'a gallery of twelve 4000×3000 phone photos scores at least 95 in Performance',
    async () => {
      const context = await session.registered('lighthouse-gallery');
      const user = await apiGet<{ id: number }>(context, '/api/user');
      const projectId = await createProjectViaApi(context, 'Galeria da Conceição');
      const urls: string[] = [];
      const uploadMs: number[] = [];
      for (let i = 0; i < GALLERY_PHOTOS; i++) {
        const photo = await phonePhoto(context, 0x2545f491 + i * 7919);
        const bytes = Buffer.from(photo.slice(photo.indexOf(',') + 1), 'base64').length;
        expect(bytes, `photo ${i} is a phone-sized JPEG`).toBeGreaterThan(3_000_000);
        expect(bytes).toBeLessThan(7_000_000);
        const sent = Date.now();
        urls.push(await upload(context, user.id, projectId, `IMG_${1000 + i}.jpg`, photo));
        uploadMs.push(Date.now() - sent);
      }
      const slowest = Math.max(...uploadMs) / 1000;
      const mean = uploadMs.reduce((a, b) => a + b, 0) / uploadMs.length / 1000;
      console.log(`gallery uploads: mean ${mean.toFixed(1)} s, slowest ${slowest.toFixed(1)} s`);
      const project = await apiGet<{ slug: string; pages: { id: number }[] }>(
        context,
        `/api/projects/${projectId}`,
      );
      const images = urls.map(
        (url, i) => `<img src="${url}" alt="Foto ${i + 1} da galeria" style="width:100%">`,
      );
      const template = `<main style="max-width:960px;margin:0 auto;padding:16px"><h1>Galeria</h1><p>Doze fotos do celular, como o dono as enviou.</p>${images.join('')}</main>`;
      await apiPost(context, `/api/page/${project.pages[0]!.id}`, { blocks: [{ uid: 'galeria', template }] });
      await apiPost(context, `/api/publish_v2/${projectId}`, { project_id: projectId });
      await waitForSite(project.slug);
      await context.close();
      const page = await edgeRequest(project.slug, 'GET', '/');
      expect(page.body.match(/<picture>/g)?.length, 'every photo is a <picture>').toBe(GALLERY_PHOTOS);
      expect(page.body.match(/fetchpriority="high"/g)?.length).toBe(1);
      expect(page.body.match(/loading="lazy"/g)?.length).toBe(GALLERY_PHOTOS - 1);

      const url = `http://${project.slug}.${platformDomain}:${new URL(edgeURL).port}/`;
      const runs = [await runLighthouse(url)];
      const performance = () => Math.max(...runs.map((r) => scores(r).performance ?? 0));
      while (runs.length < PERFORMANCE_RUNS && performance() < GALLERY_PERFORMANCE) {
        runs.push(await runLighthouse(url));
      }
      const best = runs.find((r) => scores(r).performance === performance()) ?? runs[0]!;
      console.log(`gallery: Performance ${performance()} (best of ${runs.length}), ${metrics(best)}`);
      rows.push(
        `| gallery of ${GALLERY_PHOTOS} photos ${PHOTO_WIDTH}×${PHOTO_HEIGHT} (upload ${mean.toFixed(1)} s each) | \`/\` | ${performance()} | ${scores(best).accessibility} | ${scores(best)['best-practices']} | ${scores(best).seo} | ${metrics(best)} |`,
      );
      if (EVERY_PAGE) await writeTable();
      expect(
        performance(),
        `Performance of the gallery:\n  ${failures(best).join('\n  ')}`,
      ).toBeGreaterThanOrEqual(GALLERY_PERFORMANCE);
    },
    AUDIT_TIMEOUT_MS,
  );
});
