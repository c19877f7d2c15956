// Unit tests of precompress.mjs on a small fake build: each text file worth it gets a .br and
// a .gz that decode to it; tiny, incompressible and binary files get none.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, expect, it } from 'vitest';
import { precompress } from './precompress.mjs';

const dist = mkdtempSync(join(tmpdir(), 'precompress-'));
afterAll(() => rmSync(dist, { recursive: true, force: true }));

it('writes br and gzip variants that decode to the file, only where they help', () => {
  mkdirSync(join(dist, 'assets'));
  const js = 'export const t = "olá, padaria";\n'.repeat(200);
  writeFileSync(join(dist, 'assets', 'app-1a2b3c.js'), js);
  writeFileSync(join(dist, 'index.html'), `<!doctype html><div id="root"></div>${' '.repeat(400)}`);
  writeFileSync(join(dist, 'tiny.css'), 'a{}');
  writeFileSync(join(dist, 'assets', 'noise.js'), randomBytes(4096));
  writeFileSync(join(dist, 'photo.png'), Buffer.alloc(4096));

  expect(precompress(dist)).toBe(3);
  const file = join(dist, 'assets', 'app-1a2b3c.js');
  expect(brotliDecompressSync(readFileSync(`${file}.br`)).toString()).toBe(js);
  expect(gunzipSync(readFileSync(`${file}.gz`)).toString()).toBe(js);
  expect(readFileSync(`${file}.br`).length).toBeLessThan(js.length / 10);
  expect(existsSync(join(dist, 'index.html.br'))).toBe(true);
  for (const none of ['tiny.css', 'assets/noise.js', 'photo.png']) {
    expect(existsSync(join(dist, `${none}.br`)), none).toBe(false);
    expect(existsSync(join(dist, `${none}.gz`)), none).toBe(false);
  }
});
