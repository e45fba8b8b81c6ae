/**
 * `npm run storage:move -- --from DIR` (issue 32): copies every file of a local files folder
 * (DATA_DIR/files) into the bucket STORAGE_URL names, before the instances are switched to
 * it. Files already in the bucket with the same size are skipped, so a run cut short is
 * simply run again. Each copy is streamed (never held whole) and its size checked in the
 * bucket afterwards. The folder is left as it was: remove it once the instances serve from
 * the bucket. Prints the counts; exits 1 when any file failed or the bucket is unusable.
 */
import { createReadStream, existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseStorageUrl } from '../config';
import { S3Storage } from './s3-storage';
import { LocalStorage, type FileStorage } from './storage';

export interface MoveCounts {
  copied: number;
  skipped: number;
  failed: number;
}

async function sizes(storage: FileStorage): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for await (const entry of storage.list()) found.set(entry.name, entry.size);
  return found;
}

export async function moveToBucket(
  from: LocalStorage,
  bucket: FileStorage,
  report: (line: string) => void = () => undefined,
): Promise<MoveCounts> {
  // A missing bucket or refused credentials: one sentence, before anything is read.
  await bucket.check();
  const already = await sizes(bucket);
  const counts: MoveCounts = { copied: 0, skipped: 0, failed: 0 };
  const copied = new Map<string, number>();
  for await (const entry of from.list()) {
    if (already.get(entry.name) === entry.size) {
      counts.skipped += 1;
      continue;
    }
    try {
      const file = path.join(from.root, entry.name.slice(0, 2), entry.name);
      await bucket.put(entry.name, createReadStream(file), entry.size);
      copied.set(entry.name, entry.size);
    } catch (error) {
      counts.failed += 1;
      report(`${entry.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  // Verified from the bucket's own listing: a copy counts once the bucket holds its full size.
  const after = copied.size > 0 ? await sizes(bucket) : new Map<string, number>();
  for (const [name, size] of copied) {
    if (after.get(name) === size) counts.copied += 1;
    else {
      counts.failed += 1;
      report(`${name}: the bucket holds ${after.get(name) ?? 'no'} bytes instead of ${size}.`);
    }
  }
  return counts;
}

function fromArgument(argv: string[]): string | undefined {
  const at = argv.indexOf('--from');
  if (at >= 0) return argv[at + 1];
  return argv.find((a) => a.startsWith('--from='))?.slice('--from='.length);
}

async function main(): Promise<number> {
  const url = process.env.STORAGE_URL?.trim();
  if (!url) {
    console.error(
      'STORAGE_URL is not set: set it to the bucket to copy the files into (s3://BUCKET?endpoint=...).',
    );
    return 2;
  }
  const location = parseStorageUrl(url);
  if (typeof location === 'string') {
    console.error(`STORAGE_URL ${location}.`);
    return 2;
  }
  const from = fromArgument(process.argv.slice(2));
  if (!from) {
    console.error(
      'Say which folder to copy: --from DIR (the files folder, usually DATA_DIR/files).',
    );
    return 2;
  }
  if (!existsSync(path.resolve(from))) {
    console.error(`The folder ${path.resolve(from)} does not exist.`);
    return 2;
  }
  const source = new LocalStorage(path.resolve(from));
  const bucket = await S3Storage.open(location);
  try {
    const counts = await moveToBucket(source, bucket, (line) => console.error(line));
    // The counts are the command's output (stdout); failures went to stderr above.
    process.stdout.write(
      `${counts.copied} copied, ${counts.skipped} already in the bucket, ${counts.failed} failed.\n`,
    );
    return counts.failed > 0 ? 1 : 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  } finally {
    bucket.client.destroy();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await main();
}
