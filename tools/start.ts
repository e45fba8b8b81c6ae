/**
 * `npm start`, first half: checks what can be checked before anything slow, builds only
 * what is out of date with its sources (tools/build-stamp.ts), and ends. The "start"
 * script then execs the compiled server (`node apps/server/dist/main.js`) in its place:
 * npm's own process passes it the stop signals and ends with its exit code, and nothing
 * of this launcher (Node and tsx, about 70 MB) stays in memory beside the server.
 *
 * - The server runs with two V8 flags (issue 19, `npm run bench -- memory`): `--max-semi-space-size=4`
 *   (a 4 MB young generation instead of up to 16 MB: about 20 MB less, for more frequent
 *   collections: 14 % of the code check's JavaScript time, `BENCH_CPU_PROF=dir npm run bench --
 *   checkin`, which runs its servers with these very flags) and `--liftoff-only` (the embedded PGlite's 9 MB WebAssembly stays compiled by
 *   V8's baseline compiler, Liftoff, and is never recompiled by TurboFan: about 50–90 MB less,
 *   at the CPU per request printed by the benchmark; no effect on PostgreSQL, where no
 *   WebAssembly runs).
 * - A wrong setting is said in sentences before any build (the server says the same
 *   sentences on a start without a build: one function, apps/server/src/config.ts).
 * - It runs from the root package's "start" script itself, not through `npm run … -w`:
 *   npm prints its "Lifecycle script failed" lines after a workspace script that ends
 *   in error, never after the root one, so a wrong setting reads as its sentences only.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_DATA_DIR, resolvePathSetting } from '../apps/server/src/paths';
import { BuildError, buildParts, runNodeQuietly } from './build';
import { freshness, PARTS, ROOT, type Part } from './build-stamp';

const SERVER_MAIN = path.join(ROOT, 'apps/server/dist/main.js');
/** Where `npm start` kept the data before it resolved paths from where it is typed. */
const FORMER_DATA_DIR = path.join(ROOT, 'apps/server/data');
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const NAMES: Record<Part, string> = { server: 'the server', web: 'the web app' };

const say = (line: string) => process.stdout.write(`Sésame: ${line}\n`);

/** The sentence when this Node.js is older than package.json's "engines" allows. */
function nodeVersionProblem(version = process.versions.node): string | null {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    engines: { node: string };
  };
  const wanted = /^>=\s*(\d+)\.(\d+)/.exec(pkg.engines.node);
  if (!wanted) return null;
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const [needMajor, needMinor] = [Number(wanted[1]), Number(wanted[2])];
  if (major > needMajor || (major === needMajor && minor >= needMinor)) return null;
  return `Sésame cannot start: it needs Node.js ${needMajor}.${needMinor} or later, and this is Node.js ${version}. Install a newer Node.js (README.md, "Start").`;
}

/**
 * Data kept by an earlier version in apps/server/data while the default is now ./data:
 * starting would make a new, empty database beside it. Say so instead.
 */
function formerDataProblem(env: NodeJS.ProcessEnv): string | null {
  if (env.DATA_DIR?.trim() || existsSync(DEFAULT_DATA_DIR)) return null;
  if (
    !existsSync(path.join(FORMER_DATA_DIR, 'db')) &&
    !existsSync(path.join(FORMER_DATA_DIR, 'jwt-secret'))
  )
    return null;
  return [
    'Sésame cannot start: its data folder is now ./data, and an earlier version kept it in apps/server/data.',
    'Move it (mv apps/server/data data), or set DATA_DIR=apps/server/data to keep it where it is.',
  ].join('\n');
}

/**
 * `node apps/server/dist/main.js --prepare-database`: creates and migrates a new
 * embedded database (PostgreSQL's initdb in WebAssembly takes most of a first start)
 * while the web app builds on the other core.
 */
function prepareDatabase(signal: AbortSignal): Promise<void> {
  return runNodeQuietly(
    [SERVER_MAIN, '--prepare-database'],
    { env: process.env, signal },
    (output) => output || 'The database could not be prepared.',
  );
}

async function buildIfNeeded(): Promise<boolean> {
  const states = await Promise.all(PARTS.map((part) => freshness(part)));
  const stale = states.filter((state) => !state.upToDate);
  if (!stale.length) {
    say('the server and the web app are up to date with their sources: no build.');
    return true;
  }
  // The settings first: a wrong one is said now, not after the build.
  const { checkSettings, describeConfigProblems } = await import('../apps/server/src/config');
  const { settings, problems } = checkSettings(process.env);
  if (!settings) {
    console.error(describeConfigProblems(problems));
    return false;
  }
  say(`building ${stale.map((state) => `${NAMES[state.part]} (${state.reason})`).join(' and ')}…`);
  const controller = new AbortController();
  const abort = () => controller.abort();
  for (const signal of STOP_SIGNALS) process.once(signal, abort);
  const newEmbedded = !settings.DATABASE_URL && !existsSync(path.join(settings.DATA_DIR, 'db'));
  const prepare = newEmbedded ? () => prepareDatabase(controller.signal) : undefined;
  const serverStale = stale.some((state) => state.part === 'server');
  const started = performance.now();
  try {
    const results = await Promise.allSettled([
      buildParts(
        stale.map((state) => state.part),
        // The database is prepared by the server's own code: once it is built.
        { signal: controller.signal, afterServer: serverStale ? prepare : undefined },
      ),
      serverStale ? undefined : prepare?.(),
    ]);
    for (const result of results) if (result.status === 'rejected') throw result.reason;
  } catch (error) {
    if (controller.signal.aborted) return false;
    if (!(error instanceof BuildError)) throw error;
    console.error(error.message);
    return false;
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, abort);
  }
  const prepared = newEmbedded ? ', the new embedded database prepared beside it' : '';
  say(`built in ${((performance.now() - started) / 1000).toFixed(1)} s${prepared}.`);
  return true;
}

async function main(): Promise<void> {
  const problem = nodeVersionProblem() ?? formerDataProblem(process.env);
  if (problem) {
    console.error(problem);
    process.exitCode = 1;
    return;
  }
  if (!(await buildIfNeeded())) {
    process.exitCode = 1;
    return;
  }
  say(
    `data folder ${process.env.DATA_DIR?.trim() ? resolvePathSetting(process.env.DATA_DIR.trim()) : DEFAULT_DATA_DIR}`,
  );
  // The "start" script runs the server next, when this ends with 0.
}

await main();
