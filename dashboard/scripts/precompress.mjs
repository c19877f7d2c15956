// Writes a .br and a .gz beside every text file of the build (dist/), which the control plane
// sends to browsers that accept them (tower-http's ServeDir, precompressed_br/precompressed_gzip:
// control-plane/src/dashboard_files.rs), so no request is compressed on the fly. Node's own
// zlib makes both (brotli at quality 11, gzip at level 9): no package is needed for it. A variant
// is kept only when it saves at least a tenth, as the publisher does for sites.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|webmanifest|ico)$/;
const MIN_BYTES = 256;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

export function precompress(dist) {
  let count = 0;
  for (const path of files(dist)) {
    if (!COMPRESSIBLE.test(path)) continue;
    const data = readFileSync(path);
    if (data.length < MIN_BYTES) continue;
    const worth = (variant) => variant.length * 10 < data.length * 9;
    const br = brotliCompressSync(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    });
    const gz = gzipSync(data, { level: 9 });
    if (worth(br)) writeFileSync(`${path}.br`, br);
    if (worth(gz)) writeFileSync(`${path}.gz`, gz);
    count += 1;
  }
  return count;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
  console.log(`precompressed ${precompress(dist)} files in ${dist}`);
}
