// Generates src/features/projects/fonts-catalogue.json: family, category and variants in Google
// Fonts API naming ("regular", "italic", "700", "700italic"). The dashboard ships this file so the
// font picker never calls an outside fonts service, and the publisher reads each family's
// category from it (shared/src/fonts.rs). Run: npm run fonts:catalogue
//
// The source is google-font-metadata, the Fontsource project's Google Fonts metadata from which
// Fontsource builds the files its CDN serves. Publishing fetches a face from VITRINE_FONTS_URL, a
// Fontsource-layout provider, as `{family id}/latin-{weight}-{style}.woff2`
// (`FontFace::provider_path` in shared/src/fonts.rs), so the catalogue lists exactly those faces:
// families with a latin subset, each with the weights and styles that have a latin file.
//
// The package is fetched with `npm pack` at the version and integrity pinned here, not installed:
// its runtime dependencies (a browser driver among them) are only needed to regenerate the
// metadata, never to read it. To move to a newer release, change both constants and run again.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = 'google-font-metadata';
const VERSION = '6.0.8';
const INTEGRITY =
  'sha512-6P2rhlrV0AoTTMrEf+1h7azRjQiMMcZ8RpV+NuxGPaOKhwwpbqsE3HsQY01PYYa/KJbf6UxuyVlcVVGzK3ywfw==';

const work = mkdtempSync(join(tmpdir(), 'fonts-catalogue-'));
let source;
try {
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', `${PACKAGE}@${VERSION}`, '--json', '--pack-destination', work], {
      encoding: 'utf8',
    }),
  );
  if (packed.integrity !== INTEGRITY) {
    throw new Error(`${PACKAGE}@${VERSION}: integrity ${packed.integrity}, expected ${INTEGRITY}`);
  }
  const member = 'package/data/google-fonts-v1.json';
  execFileSync('tar', ['-xzf', join(work, packed.filename), '-C', work, member]);
  source = JSON.parse(readFileSync(join(work, member), 'utf8'));
} finally {
  rmSync(work, { recursive: true, force: true });
}

function variantName(style, weight) {
  if (weight === 400) return style === 'italic' ? 'italic' : 'regular';
  return style === 'italic' ? `${weight}italic` : String(weight);
}

const catalogue = Object.values(source)
  .map((font) => {
    const variants = [];
    for (const weight of font.weights) {
      for (const style of ['normal', 'italic']) {
        if (font.variants[weight]?.[style]?.latin) {
          variants.push({ style, weight, name: variantName(style, weight) });
        }
      }
    }
    variants.sort((a, b) => a.weight - b.weight || (a.style === 'normal' ? -1 : 1));
    return { family: font.family, category: font.category, variants: variants.map((v) => v.name) };
  })
  .filter((font) => font.variants.length > 0)
  .sort((a, b) => a.family.localeCompare(b.family, 'en'));

const out = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'src',
  'features',
  'projects',
  'fonts-catalogue.json',
);
writeFileSync(out, JSON.stringify(catalogue) + '\n');
console.log(`wrote ${catalogue.length} families from ${PACKAGE}@${VERSION} to ${out}`);
