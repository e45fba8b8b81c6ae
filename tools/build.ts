/**
 * `npm run build`, and the build step of `npm start`: the server (esbuild, in this
 * process, about a second) and the web app (Vite then the precompressed copies, in a
 * process of its own) at the same time, each writing its stamp when it succeeds.
 * Neither type-checks: `npm run typecheck` (part of `npm test`) does.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PARTS, ROOT, type Part } from './build-stamp';

export class BuildError extends Error {}

/**
 * Runs this Node.js with `args` in a process of its own, its output kept rather than shown:
 * resolves when it ends with 0, else rejects with a BuildError that `failure` words from what
 * it printed (a build's errors, the database's). Stopped by `signal` with SIGTERM.
 */
export function runNodeQuietly(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; signal?: AbortSignal },
  failure: (output: string) => string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      ...options,
      stdio: ['ignore', 'pipe', 'pipe'],
      killSignal: 'SIGTERM',
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve();
      else reject(new BuildError(failure(output.trimEnd())));
    });
  });
}

function runWebBuild(signal?: AbortSignal): Promise<void> {
  return runNodeQuietly(
    ['--import', 'tsx', path.join(ROOT, 'tools/build-web.ts')],
    { cwd: ROOT, signal },
    (output) => `The web app's build failed:\n${output}`,
  );
}

async function runServerBuild(): Promise<void> {
  const { buildServer } = await import('../apps/server/scripts/build');
  try {
    await buildServer();
  } catch (error) {
    throw new BuildError(`The server's build failed:\n${(error as Error).message}`);
  }
}

/**
 * Builds `parts` side by side; resolves with each part's duration in ms.
 * `afterServer` runs once the server is built, while the web app may still be building.
 */
export async function buildParts(
  parts: Part[],
  options: { signal?: AbortSignal; afterServer?: () => Promise<void> } = {},
): Promise<Record<Part, number | undefined>> {
  const took: Record<Part, number | undefined> = { server: undefined, web: undefined };
  const timed = async (part: Part, run: () => Promise<void>) => {
    const started = performance.now();
    await run();
    took[part] = performance.now() - started;
  };
  const results = await Promise.allSettled(
    parts.map((part) =>
      part === 'server'
        ? timed(part, runServerBuild).then(() => options.afterServer?.())
        : timed(part, () => runWebBuild(options.signal)),
    ),
  );
  const failures = results.flatMap((result) =>
    result.status === 'rejected' ? [result.reason as Error] : [],
  );
  if (failures.length) throw new BuildError(failures.map((error) => error.message).join('\n\n'));
  return took;
}

const seconds = (ms: number | undefined) => `${((ms ?? 0) / 1000).toFixed(1)} s`;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const took = await buildParts(PARTS);
    console.error(
      `Built the server in ${seconds(took.server)} and the web app in ${seconds(took.web)}.`,
    );
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
