/**
 * `npm run build -w @sesame/server`: the server as one ES module, dist/main.js, that
 * `node` runs in production (ARCHITECTURE §3). The workspace packages it imports
 * (@sesame/shared, TypeScript source) are compiled into it; the npm packages stay
 * imports, resolved from node_modules at run time, and each must be declared in this
 * package's "dependencies": a package reached otherwise fails the build.
 * No type-checking here (esbuild strips the types): `npm run typecheck` does that, and
 * `npm start` does not wait for it. The build writes its stamp (tools/build-stamp.ts),
 * so a start on unchanged sources does not build again.
 */
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { sourceHash, writeStamp } from '../../../tools/build-stamp';

const ROOT = path.resolve(import.meta.dirname, '..');

export async function buildServer(): Promise<void> {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const runtime = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@sesame/'));
  // Taken before the build: a source edited while it runs makes the next start build again.
  const source = await sourceHash('server');

  await rm(path.join(ROOT, 'dist'), { recursive: true, force: true });
  const result = await build({
    entryPoints: [path.join(ROOT, 'src/main.ts')],
    outfile: path.join(ROOT, 'dist/main.js'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    external: runtime.flatMap((name) => [name, `${name}/*`]),
    sourcemap: true,
    // The map without the sources' text (they are beside it, in src/): `npm start` runs with
    // --enable-source-maps, and Node holds the map it reads for the server's whole life. With
    // the sources inside (2.8 MB instead of 0.9), the idle server held 25 MB more
    // (`npm run bench -- memory`, PostgreSQL: 167 → 142 MB); stack traces are the same.
    sourcesContent: false,
    // Without the comments (whitespace only: no name changes; stack traces go through the map).
    // They held the bundle's only non-ASCII characters (French words), and one such character
    // makes V8 keep the whole 1.3 MB script as two-byte text for the server's life.
    minifyWhitespace: true,
    metafile: true,
    logLevel: 'warning',
  });

  // Anything from node_modules inside the bundle was imported without being declared.
  const undeclared = Object.keys(result.metafile.inputs).filter((input) =>
    input.includes('node_modules/'),
  );
  if (undeclared.length) {
    await rm(path.join(ROOT, 'dist'), { recursive: true, force: true });
    throw new Error(
      `The server imports packages missing from apps/server/package.json "dependencies":\n  ${undeclared.join('\n  ')}`,
    );
  }
  // esbuild escapes strings, not regular expressions' literal characters: write those as \u.
  const bundle = readFileSync(path.join(ROOT, 'dist/main.js'), 'utf8');
  const wide = /[\u0080-\uffff]/.exec(bundle);
  if (wide) {
    await rm(path.join(ROOT, 'dist'), { recursive: true, force: true });
    throw new Error(
      `The server's bundle holds a non-ASCII character (write it as \\u…), which makes V8 keep the whole bundle as two-byte text: …${bundle.slice(Math.max(0, wide.index - 60), wide.index + 20)}…`,
    );
  }
  await writeStamp('server', source);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildServer().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
