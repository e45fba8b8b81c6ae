/**
 * `npm run build -w @sesame/server`: the server as one ES module, dist/main.js, that
 * `node` runs in production (ARCHITECTURE §3). The workspace packages it imports
 * (@sesame/shared, TypeScript source) are compiled into it; the npm packages stay
 * imports, resolved from node_modules at run time, and each must be declared in this
 * package's "dependencies": a package reached otherwise fails the build.
 */
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};
const runtime = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@sesame/'));

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
  metafile: true,
  logLevel: 'warning',
});

// Anything from node_modules inside the bundle was imported without being declared.
const undeclared = Object.keys(result.metafile.inputs).filter((input) =>
  input.includes('node_modules/'),
);
if (undeclared.length) {
  console.error(
    `The server imports packages missing from apps/server/package.json "dependencies":\n  ${undeclared.join('\n  ')}`,
  );
  process.exit(1);
}
