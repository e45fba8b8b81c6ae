/**
 * Where uploaded bytes live (ARCHITECTURE §11, issue 32). One interface, two drivers: a
 * local folder (LocalStorage, the default) and an S3-compatible bucket (S3Storage, in
 * s3-storage.ts; openStorage picks one). Names are random; neither is ever served directly:
 * the routes check access, then stream the bytes through.
 */
import { constants, createWriteStream } from 'node:fs';
import {
  access,
  mkdir,
  open,
  readFile,
  readdir,
  rename,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomBytes } from 'node:crypto';
import { errorCode, HttpError } from '../errors';

/** A stored file opened for reading: the caller must consume or destroy the stream. */
export interface StoredStream {
  stream: Readable;
  /** In bytes, when the driver knows it up front (both drivers do). */
  size?: number;
}

/** One stored file, as a listing sees it. */
export interface StoredEntry {
  name: string;
  size: number;
  /** Last written: the orphan sweep leaves young files alone (an upload in flight). */
  modifiedAt: Date;
}

export interface FileStorage {
  /** A stream is written without being held whole; `size` lets the S3 driver send it as is. */
  put(name: string, bytes: Buffer | Readable, size?: number): Promise<void>;
  /** The whole file, for callers that need bytes (badge render, export zip, PDF). */
  get(name: string): Promise<Buffer | null>;
  /** For serving: the file streamed, never held whole in memory. */
  getStream(name: string): Promise<StoredStream | null>;
  /** Removing a name that is not stored is not an error. */
  remove(name: string): Promise<void>;
  /** Every stored name (in no set order), for the orphan sweep and the move command. */
  list(): AsyncIterable<StoredEntry>;
  /** A cheap probe for /api/ready: resolves when writable/reachable, throws a sentence otherwise. */
  check(): Promise<void>;
  /** Lets go of what the driver holds open (the S3 client's sockets); a folder holds nothing. */
  close?(): void;
}

/**
 * The storage could not be reached or refused the operation (a missing bucket, wrong
 * credentials, a dead endpoint). A 503 with a message a person can read, through the
 * error handler's HttpError branch; `message` keeps the sentence for the logs.
 */
export class StorageUnavailable extends HttpError {
  constructor(sentence: string, options?: { cause?: unknown }) {
    super(503, (m) => m.availability.storageUnavailable);
    this.message = sentence;
    this.name = 'StorageUnavailable';
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

const SAFE_NAME = /^[A-Za-z0-9._-]+$/;

/** Stored names are ours (random hex plus an extension): anything else is refused, never a path. */
export function assertSafeName(name: string): void {
  if (!SAFE_NAME.test(name) || name.startsWith('.') || name.length > 200)
    throw new Error(`unsafe stored name ${JSON.stringify(name)}`);
}

export const isSafeName = (name: string): boolean =>
  SAFE_NAME.test(name) && !name.startsWith('.') && name.length <= 200;

export class LocalStorage implements FileStorage {
  constructor(readonly root: string) {}

  private pathOf(name: string): string {
    assertSafeName(name);
    // Two levels of fan-out keep folders small.
    return path.join(this.root, name.slice(0, 2), name);
  }

  async put(name: string, bytes: Buffer | Readable): Promise<void> {
    const target = this.pathOf(name);
    await mkdir(path.dirname(target), { recursive: true });
    if (Buffer.isBuffer(bytes)) {
      await writeFile(target, bytes, { mode: 0o600 });
      return;
    }
    // A stream goes to a dot-named temporary file first (never listed, see list()), renamed
    // once complete: a reader never sees half a file under its real name.
    const temporary = path.join(
      path.dirname(target),
      `.${name}.${randomBytes(6).toString('hex')}.part`,
    );
    try {
      await pipeline(bytes, createWriteStream(temporary, { mode: 0o600 }));
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async get(name: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(name));
    } catch (error) {
      // catch gives unknown; fs throws Node system errors, which carry `code`.
      if (errorCode(error) === 'ENOENT') return null;
      throw error;
    }
  }

  async getStream(name: string): Promise<StoredStream | null> {
    let handle;
    try {
      // Opened here, not lazily by the stream: a file removed meanwhile is a 404 before any
      // header is sent, never a stream that fails once the answer has begun.
      handle = await open(this.pathOf(name), 'r');
    } catch (error) {
      // catch gives unknown; fs throws Node system errors, which carry `code`.
      if (errorCode(error) === 'ENOENT') return null;
      throw error;
    }
    try {
      const info = await handle.stat();
      if (!info.isFile()) {
        await handle.close();
        return null;
      }
      return { stream: handle.createReadStream(), size: info.size };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async remove(name: string): Promise<void> {
    await rm(this.pathOf(name), { force: true });
  }

  async *list(): AsyncIterable<StoredEntry> {
    let shards: string[];
    try {
      shards = await readdir(this.root);
    } catch (error) {
      // catch gives unknown; fs throws Node system errors, which carry `code`.
      if (errorCode(error) === 'ENOENT') return;
      throw error;
    }
    for (const shard of shards) {
      let names: string[];
      try {
        names = await readdir(path.join(this.root, shard));
      } catch {
        continue; // not a folder
      }
      for (const name of names) {
        // Dot names are temporary files of a put in progress, and anything unsafe is not ours.
        if (!isSafeName(name)) continue;
        try {
          const info = await stat(path.join(this.root, shard, name));
          if (info.isFile()) yield { name, size: info.size, modifiedAt: info.mtime };
        } catch {
          // removed meanwhile
        }
      }
    }
  }

  async check(): Promise<void> {
    try {
      await mkdir(this.root, { recursive: true });
      await access(this.root, constants.W_OK);
    } catch (error) {
      const code = errorCode(error) ?? String(error);
      throw new Error(`The files folder ${this.root} is not writable (${code}).`, {
        cause: error,
      });
    }
  }
}
