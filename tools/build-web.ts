/**
 * The web app's build, run by tools/build.ts in a process of its own (Vite's memory
 * goes with it): `vite build` with apps/web/vite.config.ts, then the precompressed
 * copies (apps/web/scripts/precompress.ts), then the stamp. It does the same as
 * `npm run build -w @sesame/web` without the per-file size report, whose gzip pass
 * costs time and which nobody reads at start.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, sourceHash, writeStamp } from './build-stamp';

const WEB = path.join(ROOT, 'apps/web');

export async function buildWeb(): Promise<void> {
  const source = await sourceHash('web');
  // Vite is the web package's dependency: resolve it from there, not from this folder.
  const vitePath = createRequire(path.join(WEB, 'package.json')).resolve('vite');
  const vite = (await import(pathToFileURL(vitePath).href)) as {
    build: (config: Record<string, unknown>) => Promise<unknown>;
  };
  await vite.build({ root: WEB, logLevel: 'warn', build: { reportCompressedSize: false } });
  const { precompress } = (await import(
    pathToFileURL(path.join(WEB, 'scripts/precompress.ts')).href
  )) as typeof import('../apps/web/scripts/precompress');
  await precompress();
  await writeStamp('web', source);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildWeb().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
