/**
 * Where uploaded bytes live. One interface: a local folder now, S3-compatible
 * object storage later (ARCHITECTURE §11). Names are random; the folder is
 * never served directly.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface FileStorage {
  put(name: string, bytes: Buffer): Promise<void>;
  get(name: string): Promise<Buffer | null>;
  remove(name: string): Promise<void>;
}

const SAFE_NAME = /^[A-Za-z0-9._-]+$/;

export class LocalStorage implements FileStorage {
  constructor(private readonly root: string) {}

  private pathOf(name: string): string {
    if (!SAFE_NAME.test(name) || name.startsWith('.'))
      throw new Error(`unsafe stored name ${name}`);
    // Two levels of fan-out keep folders small.
    return path.join(this.root, name.slice(0, 2), name);
  }

  async put(name: string, bytes: Buffer): Promise<void> {
    const target = this.pathOf(name);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, bytes, { mode: 0o600 });
  }

  async get(name: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async remove(name: string): Promise<void> {
    await rm(this.pathOf(name), { force: true });
  }
}
