/**
 * The embedded database is one process's: two servers on one data folder each see
 * only their own writes and lose the other's (issue 12 §6). The folder is locked
 * (proper-lockfile: a `<folder>.lock` directory kept fresh while the server runs)
 * and the owner's pid written beside it, so a second server refuses at once, and a
 * lock left by a killed server (`kill -9`) is taken over when its pid is gone.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import lockfile from 'proper-lockfile';
import { errorCode } from '../errors';

export class DataFolderLockedError extends Error {}

const ownerFile = (folder: string) => `${folder}.lock.pid`;

function ownerPid(folder: string): number | null {
  try {
    const pid = Number(readFileSync(ownerFile(folder), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // catch gives unknown; process.kill throws Node system errors, which carry `code`.
    return errorCode(error) === 'EPERM';
  }
}

/** Locks `folder` for this process; resolves with the release function. */
export async function lockDataFolder(folder: string): Promise<() => Promise<void>> {
  const options = {
    realpath: false,
    stale: 30_000,
    update: 5_000,
    retries: 0,
    onCompromised: (error: Error) => {
      process.emitWarning(`data folder lock compromised: ${error.message}`);
    },
  };
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(folder, options);
  } catch (error) {
    // catch gives unknown; proper-lockfile throws Node-style errors, which carry `code`.
    if (errorCode(error) !== 'ELOCKED') throw error;
    const pid = ownerPid(folder);
    if (pid !== null && pid !== process.pid && alive(pid)) {
      throw new DataFolderLockedError(
        `the data folder ${folder} is in use by another Sésame server (pid ${pid}); stop it or set another DATA_DIR`,
      );
    }
    if (pid === null) {
      throw new DataFolderLockedError(
        `the data folder ${folder} is locked by another Sésame server; stop it or set another DATA_DIR`,
      );
    }
    // Its owner is gone (killed): take the lock over.
    rmSync(`${folder}.lock`, { recursive: true, force: true });
    release = await lockfile.lock(folder, options);
  }
  writeFileSync(ownerFile(folder), String(process.pid));
  return async () => {
    rmSync(ownerFile(folder), { force: true });
    await release().catch(() => undefined);
  };
}
