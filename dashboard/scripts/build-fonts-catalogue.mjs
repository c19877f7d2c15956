// Generates src/features/projects/fonts-catalogue.json from the google-fonts-complete
// package: family, category and variants in Google Fonts API naming ("regular",
// "italic", "700", "700italic"). The dashboard ships this file so the font picker
// never calls an outside fonts service. Run: npm run fonts:catalogue
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const source = JSON.parse(readFileSync(require.resolve('google-fonts-complete/google-fonts.json'), 'utf8'));

function variantName(style, weight) {
  if (weight === '400') return style === 'italic' ? 'italic' : 'regular';
  return style === 'italic' ? `${weight}italic` : weight;
}

const catalogue = Object.entries(source)
  .map(([family, info]) => {
    const variants = [];
    for (const style of ['normal', 'italic']) {
      for (const weight of Object.keys(info.variants?.[style] ?? {})) {
        variants.push({ style, weight: Number(weight), name: variantName(style, weight) });
      }
    }
    variants.sort((a, b) => a.weight - b.weight || (a.style === 'normal' ? -1 : 1));
    return { family, category: info.category, variants: variants.map((v) => v.name) };
  })
  .sort((a, b) => a.family.localeCompare(b.family));

const out = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'src',
  'features',
  'projects',
  'fonts-catalogue.json',
);
writeFileSync(out, JSON.stringify(catalogue) + '\n');
console.log(`wrote ${catalogue.length} families to ${out}`);
