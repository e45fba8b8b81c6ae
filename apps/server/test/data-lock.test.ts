/**
 * Issue 12 §6: one server per embedded data folder. A second one refuses with one
 * clear line; a lock left by a killed server is taken over.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataFolderLockedError, lockDataFolder } from '../src/db/data-lock';

describe('embedded data folder lock', () => {
  const roots: string[] = [];
  const folder = async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'sesame-lock-'));
    roots.push(root);
    return path.join(root, 'db');
  };
  afterAll(async () => {
    await Promise.all(roots.map((r) => rm(r, { recursive: true, force: true })));
  });

  it('refuses a second owner while the first lives, with one readable line', async () => {
    const dir = await folder();
    const release = await lockDataFolder(dir);
    // Another live process holds it (our parent stands in for a second server).
    writeFileSync(`${dir}.lock.pid`, String(process.ppid));
    const second = await lockDataFolder(dir).then(
      () => null,
      (error: unknown) => error,
    );
    expect(second).toBeInstanceOf(DataFolderLockedError);
    expect((second as Error).message).toBe(
      `the data folder ${dir} is in use by another Sésame server (pid ${process.ppid}); stop it or set another DATA_DIR`,
    );
    expect((second as Error).message).not.toContain('\n');
    writeFileSync(`${dir}.lock.pid`, String(process.pid));
    await release();
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });

  it('takes over the lock of a server that was killed', async () => {
    const dir = await folder();
    await lockDataFolder(dir);
    // A pid that no longer runs: a process that has exited.
    const gone = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid!;
    writeFileSync(`${dir}.lock.pid`, String(gone));
    const release = await lockDataFolder(dir);
    await release();
  });
});
