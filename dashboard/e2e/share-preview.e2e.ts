/**
 * A product's link preview as a chat app shows it (issue 44, share cards): an owner makes a
 * site from the seeded bakery template (its products have prices and photos) and publishes it;
 * the test reads the product page's own tags from the edge (og:title, og:description,
 * og:site_name, og:image and its size), fetches the card the page names from the site's host,
 * checks it is a 1200×630 PNG, and draws a WhatsApp-like chat bubble holding the preview from
 * exactly those values, in Chromium at a phone's width.
 *
 * With SHARE_PREVIEW_PNG set (`SHARE_PREVIEW_PNG=../docs/screens/whatsapp-preview.png`), the
 * bubble is saved there: docs/screens/README.md says how that picture is made.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { edgeRaw, edgeRequest, publishBakery, useBrowser } from './support';

const EDGE_WAIT_MS = 15_000;
const PRODUCT = '/produto/pao-de-queijo-canastra';

/** The content of `<meta {attr}="{key}" content="…">` in `html`, unescaped. */
function meta(html: string, attr: string, key: string): string {
  const found = new RegExp(`<meta ${attr}="${key.replace(/:/g, '\\:')}" content="([^"]*)">`).exec(html);
  if (!found?.[1]) throw new Error(`no ${key} in the page`);
  return found[1]
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The chat's markup: one incoming message with the link and its preview. */
function chat(p: { title: string; description: string; site: string; url: string; image: string }): string {
  const esc = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const host = new URL(p.url).host;
  return `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><style>
  *{box-sizing:border-box}body{margin:0;font-family:"DejaVu Sans",Helvetica,Arial,sans-serif;background:#efeae2;width:420px;height:540px}
  header{background:#008069;color:#fff;display:flex;align-items:center;gap:12px;padding:12px 16px}
  .avatar{width:40px;height:40px;border-radius:50%;background:#dfe5e7;color:#008069;display:grid;place-items:center;font-weight:700}
  header b{display:block;font-size:16px}header small{font-size:12px;opacity:.85}
  main{padding:16px 12px}
  .day{margin:0 auto 12px;width:max-content;background:#fff;color:#54656f;font-size:12px;padding:4px 10px;border-radius:8px;box-shadow:0 1px .5px rgba(11,20,26,.13)}
  .bubble{margin-left:auto;max-width:340px;background:#d9fdd3;border-radius:8px 0 8px 8px;padding:4px;box-shadow:0 1px .5px rgba(11,20,26,.13)}
  .preview{background:#d1f4cc;border-radius:6px;overflow:hidden}
  .preview img{display:block;width:100%;aspect-ratio:1200/630}
  .info{padding:6px 10px 8px}
  .title{font-size:14px;font-weight:700;color:#111b21;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}
  .desc{font-size:12.5px;color:#54656f;margin-top:2px;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}
  .host{font-size:12px;color:#8696a0;margin-top:4px}
  .text{font-size:14px;color:#111b21;padding:6px 6px 2px;word-break:break-all}.text a{color:#027eb5}
  .meta{text-align:right;font-size:11px;color:#667781;padding:0 6px 2px}.meta span{color:#53bdeb}
  </style></head><body>
  <header><div class="avatar">M</div><div><b>Marina</b><small>online</small></div></header>
  <main><div class="day">HOJE</div>
  <div class="bubble" data-testid="bubble">
    <div class="preview"><img alt="" src="${p.image}"><div class="info">
      <div class="title">${esc(p.title)}</div>
      <div class="desc">${esc(p.description)}</div>
      <div class="host">${esc(host)} · ${esc(p.site)}</div></div></div>
    <div class="text">Olha que delícia 😋 <a href="${esc(p.url)}">${esc(p.url)}</a></div>
    <div class="meta">10:42 <span>✓✓</span></div>
  </div></main></body></html>`;
}

describe('a product link shared in a chat', () => {
  const session = useBrowser();

  it('shows the share card the product page names', async () => {
    const owner = await session.registered('share');
    const { slug } = await publishBakery(owner, 'Padaria Grão Dourado');

    const deadline = Date.now() + EDGE_WAIT_MS;
    let page = await edgeRequest(slug, 'GET', PRODUCT);
    while (page.status !== 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      page = await edgeRequest(slug, 'GET', PRODUCT);
    }
    expect(page.status).toBe(200);
    const html = page.body;
    const image = meta(html, 'property', 'og:image');
    expect(meta(html, 'name', 'twitter:image')).toBe(image);
    expect(meta(html, 'name', 'twitter:card')).toBe('summary_large_image');
    expect(meta(html, 'property', 'og:image:width')).toBe('1200');
    expect(meta(html, 'property', 'og:image:height')).toBe('630');
    const url = meta(html, 'property', 'og:url');
    expect(image.startsWith(new URL(url).origin + '/_og/')).toBe(true);
    // The suite's preview addresses carry the edge's port 0 (listeners on any port): a shared
    // link would not, so the chat shows the address without it.
    const shared = new URL(url);
    shared.port = '';

    // The card, from the site's own host: drawn on this first request.
    const started = Date.now();
    const card = await edgeRaw(slug, 'GET', new URL(image).pathname);
    console.log(`share card drawn on first request in ${Date.now() - started} ms`);
    expect(card.status).toBe(200);
    expect(card.headers['content-type']).toBe('image/png');
    expect(String(card.headers['cache-control'])).toContain('immutable');

    const view = await (
      await session.context({ viewport: { width: 420, height: 540 }, deviceScaleFactor: 2 })
    ).newPage();
    await view.setContent(
      chat({
        title: meta(html, 'property', 'og:title'),
        description: meta(html, 'property', 'og:description'),
        site: meta(html, 'property', 'og:site_name'),
        url: shared.href,
        image: `data:image/png;base64,${card.bytes.toString('base64')}`,
      }),
    );
    const size = await view.$eval('.preview img', async (img: HTMLImageElement) => {
      await img.decode();
      return [img.naturalWidth, img.naturalHeight];
    });
    expect(size).toEqual([1200, 630]);
    const out = process.env.SHARE_PREVIEW_PNG;
    if (out) await view.screenshot({ path: resolve(process.cwd(), out) });
  });
});
