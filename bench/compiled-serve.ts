/**
 * The benchmark's server processes (serve.ts) compiled and started the way `npm start` runs
 * Sésame (ARCHITECTURE §9: measure the process that really runs): one ES module bundled by
 * esbuild as apps/server/scripts/build.ts bundles the server (the workspace's TypeScript
 * compiled in, npm packages imported at run time), and run by plain `node` with the start
 * script's own V8 flags, read from package.json so that the two never differ.
 * Run through tsx instead, every function of the hot path carried tsx's naming wrapper
 * and the young generation was larger than production's: the figures were not Sésame's.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');

/** The V8 flags of `npm start`'s `exec node … apps/server/dist/main.js`. */
export function startFlags(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const start = pkg.scripts.start ?? '';
  const flags = /exec node ((?:--\S+ )*)apps\/server\/dist\/main\.js/.exec(start)?.[1];
  if (flags === undefined)
    throw new Error(`npm start no longer runs apps/server/dist/main.js: ${start}`);
  // Source maps only name frames in stack traces; the benchmark's servers print none.
  return flags.split(' ').filter((flag) => flag && flag !== '--enable-source-maps');
}

/** npm packages stay imports, as in the server's build: everything the workspaces depend on. */
function runtimePackages(): string[] {
  const names = new Set<string>();
  for (const manifest of ['package.json', 'apps/server/package.json', 'bench/package.json']) {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, manifest), 'utf8')) as {
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    for (const name of Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }))
      if (!name.startsWith('@sesame/')) names.add(name);
  }
  return [...names].flatMap((name) => [name, `${name}/*`]);
}

let compiled: Promise<string> | undefined;

/** serve.ts as one compiled module (built once per benchmark run, apps/server/dist/bench-serve.mjs), its path. */
export function compiledServe(): Promise<string> {
  compiled ??= (async () => {
    // Beside the server's own dist/main.js: paths.ts finds the server's folder one level up,
    // and the packages resolve from the repository's node_modules, as for main.js.
    const outfile = path.join(ROOT, 'apps/server/dist/bench-serve.mjs');
    await build({
      entryPoints: [path.join(import.meta.dirname, 'serve.ts')],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20.19',
      external: runtimePackages(),
      logLevel: 'warning',
    });
    return outfile;
  })();
  return compiled;
}
