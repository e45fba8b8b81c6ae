/**
 * `npm start` itself (issues 17 and 19): the launcher (tools/start.ts) that checks the
 * settings, builds only what changed since the last build, and runs the compiled
 * server; and the build stamps it decides with (tools/build-stamp.ts).
 * `npm test` builds before these run, so the starts here find the build up to date.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freshness, PARTS, readStamp, writeStamp, sourceHash } from '../tools/build-stamp';
import { freePort, ROOT, SERVER_MAIN } from './support/server';

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

const running: Started[] = [];
const folders: string[] = [];

/** `npm start` as a person types it, in `cwd` (outside the project: `npm --prefix`). */
function npmStart(cwd: string, env: Record<string, string>): Started {
  const args = cwd === ROOT ? ['start'] : ['--prefix', ROOT, 'start'];
  const child = spawn('npm', args, {
    cwd,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      DATABASE_URL: '',
      WEB_DIST: '',
      LOG_LEVEL: 'warn',
      ADMIN_PASSWORD: 'Start-Test-Password-42',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const started = { child, output: () => output, exited };
  running.push(started);
  return started;
}

async function serving(started: Started, port: number): Promise<void> {
  const deadline = Date.now() + 100_000;
  for (;;) {
    if (started.child.exitCode !== null)
      throw new Error(`npm start ended early:\n${started.output()}`);
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`)
      .then((res) => res.ok)
      .catch(() => false);
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`not serving in time:\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stop(started: Started): Promise<number | null> {
  started.child.kill('SIGTERM');
  return started.exited;
}

async function tempFolder(prefix: string): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), prefix));
  folders.push(folder);
  return folder;
}

afterEach(async () => {
  for (const started of running.splice(0)) {
    if (started.child.exitCode === null && started.child.signalCode === null) {
      started.child.kill('SIGKILL');
      await started.exited;
    }
  }
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

describe('npm start', () => {
  it('says a wrong PORT in a sentence and exits 1: no stack, no validation dump, no npm error lines', async () => {
    const data = await tempFolder('sesame-start-');
    const started = npmStart(ROOT, { PORT: 'abc', DATA_DIR: data });
    expect(await started.exited).toBe(1);
    const output = started.output();
    expect(output).toContain(
      'Sésame cannot start: PORT must be a number between 1 and 65535 (it is "abc").',
    );
    const stackFrames = output.split('\n').filter((line) => /^\s+at \S/.test(line));
    expect(stackFrames).toEqual([]);
    expect(output).not.toMatch(/ZodError|"code":|expected number/);
    expect(output).not.toContain('npm error');
    // Nothing was started, nothing written.
    expect(existsSync(path.join(data, 'db'))).toBe(false);
  });

  it('on a busy port, a first start creates no admin, so the next start still prints its one-time password', async () => {
    const data = await tempFolder('sesame-start-');
    const port = await freePort();
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    try {
      const refused = npmStart(ROOT, { PORT: String(port), DATA_DIR: data, ADMIN_PASSWORD: '' });
      expect(await refused.exited).toBe(1);
      expect(refused.output()).toContain(
        `Sésame cannot start: another program already listens on 127.0.0.1:${port}. Stop it, or set PORT to a free port.`,
      );
      expect(refused.output()).not.toContain('Platform admin created');
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
    const started = npmStart(ROOT, { PORT: String(port), DATA_DIR: data, ADMIN_PASSWORD: '' });
    await serving(started, port);
    expect(started.output()).toMatch(/Platform admin created:[\s\S]*password: \S+ {3}\(shown once/);
    expect(await stop(started)).toBe(0);
  });

  it('keeps a relative DATA_DIR in the folder the command was typed in; a second start does not build', async () => {
    const typedIn = await tempFolder('sesame-typed-in-');
    const port = await freePort();
    const env = { DATA_DIR: './mydata', PORT: String(port) };

    const first = npmStart(typedIn, env);
    await serving(first, port);
    expect(existsSync(path.join(typedIn, 'mydata', 'db'))).toBe(true);
    expect(existsSync(path.join(ROOT, 'mydata'))).toBe(false);
    expect(existsSync(path.join(ROOT, 'apps/server/mydata'))).toBe(false);
    expect(first.output()).toContain(`data folder ${path.join(typedIn, 'mydata')}`);
    expect(await stop(first)).toBe(0);

    const stamps = await Promise.all(PARTS.map((part) => readStamp(part)));
    expect(stamps.every((stamp) => stamp !== null)).toBe(true);

    const second = npmStart(typedIn, env);
    await serving(second, port);
    expect(second.output()).toContain(
      'the server and the web app are up to date with their sources: no build.',
    );
    expect(second.output()).not.toContain('building');
    // The same stamps: nothing was built again.
    expect(await Promise.all(PARTS.map((part) => readStamp(part)))).toEqual(stamps);
    expect(await stop(second)).toBe(0);
  });
});

describe('node apps/server/dist/main.js --prepare-database', () => {
  it('creates and migrates a new embedded database, then ends without serving', async () => {
    const data = await tempFolder('sesame-prepare-');
    const child = spawn(process.execPath, [SERVER_MAIN, '--prepare-database'], {
      env: { ...process.env, DATA_DIR: data, DATABASE_URL: '', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code, output).toBe(0);
    expect(existsSync(path.join(data, 'db', 'PG_VERSION'))).toBe(true);
    // The folder's lock is released, and the admin is created by the real start, not here.
    expect(existsSync(path.join(data, 'db.lock'))).toBe(false);
    expect(output).not.toContain('Platform admin created');
  });
});

describe('build stamps', () => {
  /** A project folder with the files the server's build reads, and a built dist/main.js. */
  async function fakeProject(): Promise<string> {
    const root = await tempFolder('sesame-stamp-');
    const files: Record<string, string> = {
      'apps/server/src/main.ts': 'console.log(1);\n',
      'apps/server/src/test/not-built.ts': 'x\n',
      'apps/server/package.json': '{}\n',
      'packages/shared/src/index.ts': 'export {};\n',
      'package-lock.json': '{}\n',
      'apps/server/dist/main.js': 'built\n',
      'apps/server/node_modules/dep/index.js': 'dep\n',
    };
    for (const [file, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await writeFile(path.join(root, file), content);
    }
    return root;
  }

  it('is up to date after its build, until a source changes; times and unread folders do not count', async () => {
    const root = await fakeProject();
    expect(await freshness('server', root)).toMatchObject({
      upToDate: false,
      reason: 'not built yet',
    });
    await writeStamp('server', await sourceHash('server', root), root);
    expect((await freshness('server', root)).upToDate).toBe(true);

    // Touched, not changed: still up to date.
    const later = new Date(Date.now() + 60_000);
    await utimes(path.join(root, 'apps/server/src/main.ts'), later, later);
    // Tests and dependencies' own files are not the build's sources.
    await writeFile(path.join(root, 'apps/server/src/test/not-built.ts'), 'y\n');
    await writeFile(path.join(root, 'apps/server/node_modules/dep/index.js'), 'other\n');
    expect((await freshness('server', root)).upToDate).toBe(true);

    await writeFile(path.join(root, 'packages/shared/src/index.ts'), 'export const a = 1;\n');
    expect(await freshness('server', root)).toMatchObject({
      upToDate: false,
      reason: 'sources changed since the last build',
    });
  });

  it('is out of date when a new source file appears, or the build output is gone', async () => {
    const root = await fakeProject();
    await writeStamp('server', await sourceHash('server', root), root);
    await writeFile(path.join(root, 'apps/server/src/new.ts'), 'export {};\n');
    expect((await freshness('server', root)).upToDate).toBe(false);

    await writeStamp('server', await sourceHash('server', root), root);
    expect((await freshness('server', root)).upToDate).toBe(true);
    await rm(path.join(root, 'apps/server/dist/main.js'));
    expect(await freshness('server', root)).toMatchObject({ reason: 'not built yet' });
    expect(
      JSON.parse(await readFile(path.join(root, 'apps/server/dist/.build-stamp.json'), 'utf8')),
    ).toMatchObject({ part: 'server' });
  });
});
