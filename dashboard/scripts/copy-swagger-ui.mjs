// Copies Swagger UI's browser bundle from the swagger-ui-dist package into dist/swagger-ui,
// where the control plane's /api/docs page loads it. Shipping the files ourselves means the
// API docs page fetches nothing from outside.
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const src = dirname(require.resolve('swagger-ui-dist/package.json'));
const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'swagger-ui');
mkdirSync(out, { recursive: true });
for (const file of ['swagger-ui.css', 'swagger-ui-bundle.js']) {
  copyFileSync(join(src, file), join(out, file));
}
console.log(`swagger-ui copied to ${out}`);
