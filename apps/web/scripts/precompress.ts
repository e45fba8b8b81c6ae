/**
 * Writes .gz and .br beside every text asset of the build, so the server
 * (@fastify/static with preCompressed) sends compressed files without
 * compressing on each request. `precompress(dir)` does it for another build
 * folder too (bench/size.ts builds into a temporary one).
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export const DIST = path.resolve(import.meta.dirname, '../dist');
const COMPRESSIBLE = /\.(js|css|html|svg|json|wasm|txt)$/;
/** Smaller files are sent as they are (compression would not pay for its header). */
export const MIN_COMPRESSED_BYTES = 1024;

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (COMPRESSIBLE.test(entry.name)) yield full;
  }
}

/** Writes the compressed copies under `dist`; returns how many files it compressed. */
export async function precompress(dist = DIST): Promise<number> {
  let count = 0;
  for await (const file of walk(dist)) {
    const bytes = await readFile(file);
    if (bytes.length < MIN_COMPRESSED_BYTES) continue;
    await writeFile(`${file}.gz`, gzipSync(bytes, { level: 9 }));
    await writeFile(
      `${file}.br`,
      brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
    count++;
  }
  return count;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const count = await precompress();
  console.log(`precompressed ${count} files in ${path.relative(process.cwd(), DIST)}`);
}
